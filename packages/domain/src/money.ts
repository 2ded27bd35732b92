/** Whole Chilean pesos. Only clp() makes one, so a Clp is always a safe integer. */
export type Clp = number & { readonly __brand: 'Clp' };

/** The largest amount stored or summed: beyond it a JavaScript number no longer holds every peso exactly. */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

export function clp(n: number): Clp {
  if (!Number.isFinite(n)) throw new RangeError(`Not an amount: ${n}`);
  // The peso has no minor unit: fractions come only from arithmetic and are dropped, never rounded up.
  const whole = Math.trunc(n) + 0; // + 0 turns -0 into 0, so it never prints as '-$0'.
  if (!Number.isSafeInteger(whole)) throw new RangeError(`Amount out of range: ${n}`);
  return whole as Clp;
}

function groupThousands(digits: string): string {
  // Built by hand: es-CL number formatting depends on the ICU data the runtime ships with.
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3) {
    const chunk = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped === '' ? chunk : `${chunk}.${grouped}`;
  }
  return grouped;
}

export function formatThousands(n: number): string {
  const amount = clp(n);
  const grouped = groupThousands(String(Math.abs(amount)));
  return amount < 0 ? `-${grouped}` : grouped;
}

export function formatClp(n: number): string {
  const amount = clp(n);
  const grouped = groupThousands(String(Math.abs(amount)));
  return amount < 0 ? `-$${grouped}` : `$${grouped}`;
}

export function digitsOnly(text: string): string {
  return text.replace(/[^0-9]/g, '');
}

/** null when the text holds no digit, or more digits than any amount can have. */
export function parseClpDigits(text: string): Clp | null {
  const digits = digitsOnly(text);
  if (digits === '') return null;
  const value = Number(digits);
  // A pasted run of digits must not throw inside a form's change handler.
  return Number.isSafeInteger(value) ? clp(value) : null;
}
