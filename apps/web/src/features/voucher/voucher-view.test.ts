import { describe, expect, it } from 'vitest';
import { authorisedWithOfQuery } from './voucher-view';

describe("the voucher's 'Autorizado con' from its address", () => {
  it('names the coordinate card and the mobile authoriser, and nothing else', () => {
    expect(authorisedWithOfQuery('TCOO')).toBe('Tarjeta de coordenadas');
    expect(authorisedWithOfQuery('PassCoop')).toBe('PassCoop');
    expect(authorisedWithOfQuery('WEBPAY')).toBeNull();
    expect(authorisedWithOfQuery('PassOtro')).toBeNull();
    expect(authorisedWithOfQuery(null)).toBeNull();
    expect(authorisedWithOfQuery('<script>')).toBeNull();
  });
});
