/** Spec §5 'Voucher e-mail': local part up to 64 characters, domain labels, a TLD of 2 to 63 letters. */
const EMAIL_RE =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export const EMAIL_INVALID_MESSAGE = 'Correo inválido';
export const EMAIL_MAX_LENGTH = 254;

export function isValidVoucherEmail(email: string): boolean {
  if (email.length > EMAIL_MAX_LENGTH) return false;
  const at = email.lastIndexOf('@');
  if (at < 1 || at > 64) return false;
  return EMAIL_RE.test(email);
}

/**
 * An address named without giving it away, for a notice that may reach someone else: its first character and its
 * domain ('a***@dominio.cl'), however long the local part.
 */
export function emailHint(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
