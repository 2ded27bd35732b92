import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatVerificationCode, readVerificationCode, VERIFICATION_CODE, verificationCodeFrom } from './voucher-verification';

describe('voucher verification codes', () => {
  it('are 20 base32 characters from any 20 random bytes, read back whatever the spelling', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 32 }), (bytes) => {
        const code = verificationCodeFrom(bytes);
        expect(code).toMatch(VERIFICATION_CODE);
        expect(readVerificationCode(formatVerificationCode(code).toLowerCase())).toBe(code);
        expect(readVerificationCode(` ${formatVerificationCode(code)} `)).toBe(code);
      }),
    );
  });

  it('refuses what cannot be a code', () => {
    for (const input of ['', 'ABCD', 'A'.repeat(21), 'ABCD-EFGH-IJKL-MNOP-QRS1', '../../etc/passwd']) expect(readVerificationCode(input)).toBeNull();
    expect(() => verificationCodeFrom(new Uint8Array(19))).toThrow(RangeError);
  });

  it('groups a code by four for reading', () => {
    expect(formatVerificationCode('ABCDEFGHIJKLMNOPQRST')).toBe('ABCD-EFGH-IJKL-MNOP-QRST');
  });
});
