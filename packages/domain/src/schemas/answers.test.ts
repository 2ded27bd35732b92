import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  answerSchema,
  authOkSchema,
  consultarPagoOkSchema,
  consultarParametrosOkSchema,
  hostRefusalSchema,
  initMallOkSchema,
  oneOrManyOf,
  pagarOkSchema,
  seleccionarProductoOkSchema,
  type Pago,
} from './answers';
import { asArray, oneOrMany } from '../as-array';
import { errorEnvelope } from '../envelope';

const detalle = { numeroCuota: 3, montoPagado: 85_430, numeroAutorizacion: '123456', cantidadCuotas: 1 };
const pago: Pago = {
  numeroProducto: '****2222',
  descripcionProducto: 'CREDITO HIPOTECARIO',
  detallePago: detalle,
  rutDeudor: '12345678-5',
  fechaPago: '20301105',
  horaPago: '12:00:00',
  medioPago: 'CUENTA VISTA',
  idTransaccion: 'a'.repeat(32),
  cuentaPago: '****4321',
  email: 'cam***@example.cl',
};

describe('the answers both the API and the web read', () => {
  it('takes one item or a list of them, as oneOrMany sends and asArray reads', () => {
    const schema = oneOrManyOf(z.object({ n: z.int() }));
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: 1, maxLength: 5 }), (values) => {
        const sent = oneOrMany(values.map((n) => ({ n })));
        const parsed = schema.safeParse(sent);
        expect(parsed.success).toBe(true);
        expect(asArray(parsed.data)).toEqual(values.map((n) => ({ n })));
      }),
    );
  });

  it('reads call 7 with one payment or several, and no other fields than its own', () => {
    expect(asArray(consultarPagoOkSchema.parse({ listaPago: { pago } }).listaPago.pago)).toEqual([pago]);
    const extra = { ...pago, detallePago: [{ ...detalle, otro: 1 }], otro: 'x' };
    expect(consultarPagoOkSchema.parse({ listaPago: { pago: [extra, pago] } }).listaPago.pago).toEqual([
      { ...pago, detallePago: [detalle] },
      pago,
    ]);
  });

  it.each([
    ['no payment', { listaPago: { pago: [] } }],
    ['an unknown method', { listaPago: { pago: { ...pago, medioPago: 'EFECTIVO' } } }],
    ['a fraction of a peso', { listaPago: { pago: { ...pago, detallePago: { ...detalle, montoPagado: 1.5 } } } }],
    ['an amount JSON cannot hold exactly', { listaPago: { pago: { ...pago, detallePago: { ...detalle, montoPagado: 2 ** 53 } } } }],
    ['a missing field', { listaPago: { pago: { ...pago, email: undefined } } }],
    ['a list where an object goes', { listaPago: [pago] }],
  ])('refuses a voucher with %s', (_what, answer) => {
    expect(consultarPagoOkSchema.safeParse(answer).success).toBe(false);
  });

  it('refuses a payment answer without a paid product, and a selection without a positive total', () => {
    expect(pagarOkSchema.safeParse({ productoPagadoCV: [] }).success).toBe(false);
    const selection = { codigo: '200', idTransaccion: 'a'.repeat(32), montoTotal: 85_430 };
    expect(seleccionarProductoOkSchema.safeParse(selection).success).toBe(true);
    for (const wrong of [{ montoTotal: 0 }, { montoTotal: 1.5 }, { idTransaccion: '' }, { codigo: '201' }]) {
      expect(seleccionarProductoOkSchema.safeParse({ ...selection, ...wrong }).success).toBe(false);
    }
  });

  it('wraps an answer in its envelope, and takes the envelope’s error instead', () => {
    const schema = answerSchema('consultarParametrosResponse', consultarParametrosOkSchema);
    const one = { consultarParametrosResponse: { listaParametros: { parametro: { nombre: 'Mantencion', valor: '0' } } } };
    expect(schema.parse(one)).toEqual(one);
    expect(schema.parse(errorEnvelope('consultarParametrosResponse', '503'))).toEqual(errorEnvelope('consultarParametrosResponse', '503'));
    expect(schema.safeParse({ consultarParametrosResponse: {} }).success).toBe(false);
  });

  it('reads the payment host’s code as a number or a string of digits, 0 only on success', () => {
    expect(authOkSchema.safeParse({ code: 0, token: 't' }).success).toBe(true);
    expect(authOkSchema.safeParse({ code: '0', token: 't' }).success).toBe(true);
    expect(authOkSchema.safeParse({ code: 1, token: 't' }).success).toBe(false);
    expect(hostRefusalSchema.safeParse({ code: '47678', descripcion: 'x' }).success).toBe(true);
    expect(hostRefusalSchema.safeParse({ code: 0, descripcion: 'x' }).success).toBe(false);
    expect(hostRefusalSchema.safeParse({ code: '4x', descripcion: 'x' }).success).toBe(false);
  });

  it('takes only a web address for the card form the browser posts to', () => {
    const ok = { token: 'e'.repeat(64), url: 'https://webpay3gint.transbank.cl/webpayserver/initTransaction' };
    expect(initMallOkSchema.safeParse(ok).success).toBe(true);
    for (const url of ['javascript:alert(1)', '/relative', 'data:text/html,x', `https://x.cl/${'a'.repeat(255)}`]) {
      expect(initMallOkSchema.safeParse({ ...ok, url }).success, url).toBe(false);
    }
  });
});
