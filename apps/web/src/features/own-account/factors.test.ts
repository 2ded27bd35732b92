import { describe, expect, it } from 'vitest';
import { chooseFactor, isThirdParty, otherFactor, PASS_NAME, screenAfterLogin, voucherPath } from './factors';

describe('factor choice (specification §3, Available factors)', () => {
  it('prefers the mobile authoriser when both exist, else the one there is, else none', () => {
    expect(chooseFactor([1, 2])).toBe(2);
    expect(chooseFactor([2, 1])).toBe(2);
    expect(chooseFactor([1])).toBe(1);
    expect(chooseFactor([2])).toBe(2);
    expect(chooseFactor([])).toBeNull();
  });

  it('offers the other factor only when the payer has both', () => {
    expect(otherFactor([1, 2], 2)).toBe(1);
    expect(otherFactor([1, 2], 1)).toBe(2);
    expect(otherFactor([2], 2)).toBeNull();
    expect(otherFactor([1], 1)).toBeNull();
    expect(otherFactor([], null)).toBeNull();
  });

  it("names the authoriser after the product: 'PassCoop'", () => {
    expect(PASS_NAME).toBe('PassCoop');
  });
});

describe('after the login (specification §4, Payment flow a)', () => {
  it('sends a third party to the security-factor screen and the member to the challenge', () => {
    expect(screenAfterLogin('PC', '11111111-1', '19191919-K')).toBe('/pagoexpress/PC/SecurityFactor');
    expect(screenAfterLogin('PM', '11111111-1', '11111111-1')).toBe('/pagoexpress/PM/coopmethodpaychallenge');
  });

  it('compares RUTs whatever their spelling', () => {
    expect(isThirdParty('19191919-K', '19.191.919-k')).toBe(false);
    expect(isThirdParty('11111111-1', '011.111.111-1')).toBe(false);
    expect(isThirdParty('11111111-1', '12345678-5')).toBe(true);
  });
});

describe('voucherPath', () => {
  it('carries the category and the factor: TCOO for the card, Pass{product} for the app', () => {
    expect(voucherPath('abc123', 'PM', 1)).toBe('/pagoexpress/successvoucher/abc123?categoria=PM&factor=TCOO');
    expect(voucherPath('abc123', 'HI', 2)).toBe('/pagoexpress/successvoucher/abc123?categoria=HI&factor=PassCoop');
  });
});
