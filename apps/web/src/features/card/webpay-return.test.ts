import { describe, expect, it } from 'vitest';
import { parseWebpayFinal, parseWebpayReturn, screenAfterReturn, type WebpayReturn } from './webpay-return';

const ID = '0123456789abcdef0123456789abcdef';

describe('the card provider return URL (specification §5)', () => {
  it.each(['aprobado', 'parcial', 'rechazado', 'anulado', 'pendiente'] as const)('accepts estado=%s', (estado) => {
    expect(parseWebpayReturn(`?estado=${estado}&idTransaccion=${ID}`)).toEqual({ estado, idTransaccion: ID });
    // The order of the keys does not matter.
    expect(parseWebpayReturn(`?idTransaccion=${ID}&estado=${estado}`)).toEqual({ estado, idTransaccion: ID });
  });

  it.each([
    ['no query', ''],
    ['estado=error without an id', '?estado=error'],
    ['estado=error with an id', `?estado=error&idTransaccion=${ID}`],
    ['an approval without an id', '?estado=aprobado'],
    ['an id without estado', `?idTransaccion=${ID}`],
    ['an unknown estado', `?estado=pagado&idTransaccion=${ID}`],
    ['an estado in capitals', `?estado=APROBADO&idTransaccion=${ID}`],
    ['an empty estado', `?estado=&idTransaccion=${ID}`],
    ['an id in capitals', `?estado=aprobado&idTransaccion=${ID.toUpperCase()}`],
    ['a short id', `?estado=aprobado&idTransaccion=${ID.slice(1)}`],
    ['a long id', `?estado=aprobado&idTransaccion=${ID}0`],
    ['an id that is not hex', `?estado=aprobado&idTransaccion=${'g'.repeat(32)}`],
    ['a path in the id', `?estado=aprobado&idTransaccion=..%2F..%2F${ID.slice(6)}`],
    ['an extra key', `?estado=aprobado&idTransaccion=${ID}&token_ws=abc`],
    ['a repeated estado', `?estado=rechazado&estado=aprobado&idTransaccion=${ID}`],
    ['a repeated id', `?estado=aprobado&idTransaccion=${ID}&idTransaccion=${ID}`],
    ['a key in other case', `?Estado=aprobado&idTransaccion=${ID}`],
  ])('refuses %s', (_label, search) => {
    expect(parseWebpayReturn(search)).toBeNull();
  });
});

describe('where each return goes', () => {
  const at = (estado: WebpayReturn['estado']) => ({ estado, idTransaccion: ID });

  it.each([
    [at('aprobado'), 'PM' as const, `/pagoexpress/successvoucher/${ID}?categoria=PM&factor=WEBPAY`],
    [at('aprobado'), null, `/pagoexpress/successvoucher/${ID}?factor=WEBPAY`],
    [at('parcial'), 'PM' as const, `/pagoexpress/webpayfinal?idTransaccion=${ID}`],
    [at('pendiente'), 'PM' as const, `/pagoexpress/webpayfinal?idTransaccion=${ID}&estado=pendiente`],
    [at('rechazado'), 'PM' as const, `/pagoexpress/cancelvoucher/${ID}`],
    [at('anulado'), 'PM' as const, `/pagoexpress/cancelvoucher/${ID}?estado=anulado`],
    [at('expirado'), 'PM' as const, `/pagoexpress/cancelvoucher/${ID}?estado=expirado`],
    [at('reembolsado'), 'PM' as const, `/pagoexpress/cancelvoucher/${ID}?estado=reembolsado`],
    [at('reembolso'), 'PM' as const, `/pagoexpress/cancelvoucher/${ID}?estado=reembolso`],
    [at('retenido'), 'PM' as const, `/pagoexpress/cancelvoucher/${ID}?estado=retenido`],
    [null, 'PM' as const, '/pagoexpress/error'],
  ])('%o (family %s) → %s', (result, family, to) => {
    expect(screenAfterReturn(result, family)).toBe(to);
  });
});

describe("webpayfinal's query", () => {
  it.each([
    [`?idTransaccion=${ID}`, { idTransaccion: ID, state: 'parcial' }],
    [`?idTransaccion=${ID}&estado=pendiente`, { idTransaccion: ID, state: 'pendiente' }],
    ['', null],
    [`?idTransaccion=${ID}&estado=parcial`, null],
    [`?idTransaccion=${ID}&estado=aprobado`, null],
    [`?idTransaccion=${ID}&otro=1`, null],
    [`?idTransaccion=${ID}&idTransaccion=${ID}`, null],
    [`?idTransaccion=nope`, null],
  ])('%s → %o', (search, expected) => {
    expect(parseWebpayFinal(search)).toEqual(expected);
  });
});
