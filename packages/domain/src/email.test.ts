import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emailHint, isValidVoucherEmail } from './email';

describe('voucher e-mail', () => {
  it.each(['camila.rojas@example.cl', 'a@b.co', 'socio+pagos@correo.cooperativa.cl', `${'a'.repeat(64)}@x.cl`])('accepts %s', (email) => {
    expect(isValidVoucherEmail(email)).toBe(true);
  });

  it.each(['', 'sin-arroba', '@example.cl', 'a@b', 'a@b.c', 'a@b.c0', `${'a'.repeat(65)}@x.cl`, 'a b@x.cl', 'a@-x.cl', 'a..b@x.cl', `a@x.${'c'.repeat(64)}`])(
    'refuses %s',
    (email) => {
      expect(isValidVoucherEmail(email)).toBe(false);
    },
  );

  it('accepts what fast-check calls a web e-mail, within the spec’s limits', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const [local = '', domain = ''] = email.split('@');
        const tld = domain.split('.').at(-1) ?? '';
        const withinSpec = local.length <= 64 && /^[A-Za-z]{2,63}$/.test(tld) && email.length <= 254 && !local.includes('..');
        if (withinSpec && /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+$/.test(local) && !local.startsWith('.') && !local.endsWith('.')) {
          expect(isValidVoucherEmail(email)).toBe(true);
        }
      }),
    );
  });
});

describe('e-mail hint', () => {
  it('keeps the first character and the domain, and hides how long the rest is', () => {
    expect(emailHint('ana.soto@dominio.cl')).toBe('a***@dominio.cl');
    expect(emailHint('a@dominio.cl')).toBe('a***@dominio.cl');
    expect(emailHint('"a@b"@x.cl')).toBe('"***@x.cl');
    expect(emailHint('sin-arroba')).toBe('***');
  });
});
