import {
  autenticaRequestSchema,
  autorizarRequestSchema,
  pagarRequestSchema,
} from '@pago/domain/schemas/call-cuenta-vista';
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../../lib/api-client';
import { businessError, stubServer } from '../testing';
import { autentica, autenticaRequest, autorizar, autorizarRequest, pagar, pagarRequest } from './cuenta-vista';

const parties = { token: 'tok', memberRut: '11111111-1', payerRut: '19191919-K' };

describe('request building', () => {
  it('call 4 sends the payer RUT without its check digit, the check digit and the password', () => {
    const request = autenticaRequest('tok', '19191919-K', '1234');
    expect(request).toEqual({
      autenticaConsultaFactoresRequest: {
        userId: '19191919-K',
        canalLlamada: 'PGEX',
        token: 'tok',
        autenticacion: { rut: '19191919', dv: 'K', clave: '1234' },
      },
    });
    expect(autenticaRequestSchema.safeParse(request).success).toBe(true);
  });

  it('call 5 names the member (rut) and the payer (rutPago)', () => {
    const request = autorizarRequest(parties, 1);
    expect(request.autorizarPagoProductoCVRequest).toMatchObject({ factor: 1, rut: '11111111-1', rutPago: '19191919-K' });
    expect(autorizarRequestSchema.safeParse(request).success).toBe(true);
  });

  it('call 6 with the card carries the three values; with the app, none', () => {
    const card = pagarRequest(parties, '000031245610', 1, ['07', '42', '99']);
    expect(card.pagarProductoCVRequest).toMatchObject({
      rutTitular: '11111111-1',
      rutPago: '19191919-K',
      numeroCuenta: '000031245610',
      factor: 1,
      desafio: { item: [{ valor: '07' }, { valor: '42' }, { valor: '99' }] },
    });
    expect(pagarRequestSchema.safeParse(card).success).toBe(true);
    const app = pagarRequest(parties, '000031245610', 2);
    expect(app.pagarProductoCVRequest).not.toHaveProperty('desafio');
    expect(app.pagarProductoCVRequest.factor).toBe(2);
    expect(pagarRequestSchema.safeParse(app).success).toBe(true);
  });
});

const AUT = '/prod/pago/producto/cuentavista/autentica';
const AUZ = '/prod/pago/producto/cuentavista/autorizar';
const PAG = '/prod/pago/producto/cuentavista/pagar';

describe('answers', () => {
  it('call 4: the account and the factors; the captcha goes in Authorization', async () => {
    const server = stubServer({
      [AUT]: [{ autenticaConsultaFactoresResponse: { codigo: '200', numeroCuenta: '0001', factores: [{ factor: 1 }, { factor: 2 }] } }],
    });
    expect(await autentica(autenticaRequest('tok', '11111111-1', '1234'), 'captcha-token')).toEqual({
      kind: 'login',
      numeroCuenta: '0001',
      factores: [1, 2],
    });
    expect(server.calls[0]?.headers['Authorization']).toBe('captcha-token');
  });

  it('call 4: a business error is a value', async () => {
    stubServer({ [AUT]: [businessError('autenticaConsultaFactoresResponse', '45203113')] });
    expect(await autentica(autenticaRequest('tok', '11111111-1', 'x'), 'c')).toEqual({
      kind: 'error',
      error: { codigo: '45203113', descripcion: 'Descripción 45203113.' },
    });
  });

  it('call 5: the cells and the validity; factor 1 without three cells is a fault', async () => {
    stubServer({
      [AUZ]: [
        { autorizarPagoProductoCVResponse: { codigo: '200', numeroCuenta: '0001', desafio: { item: [{ valor: 'A1' }, { valor: 'B2' }, { valor: 'J5' }] }, vigencia: 120 } },
        { autorizarPagoProductoCVResponse: { codigo: '200', numeroCuenta: '0001', vigencia: 120 } },
      ],
    });
    expect(await autorizar(autorizarRequest(parties, 1))).toEqual({
      kind: 'authorization',
      numeroCuenta: '0001',
      cells: ['A1', 'B2', 'J5'],
      vigencia: 120,
    });
    const fault: unknown = await autorizar(autorizarRequest(parties, 1)).catch((error: unknown) => error);
    expect(isApiError(fault) && fault.kind).toBe('parse');
    expect(await autorizar(autorizarRequest(parties, 2))).toMatchObject({ kind: 'authorization', cells: [] });
  });

  it('call 6: one product or several; the transaction id comes from the first', async () => {
    const pagado = { idTransaccion: 'trx-9', numeroProducto: '1', montoPagado: 100, numeroAutorizacion: '123456' };
    stubServer({
      [PAG]: [
        { pagarProductoCVResponse: { productoPagadoCV: pagado } },
        { pagarProductoCVResponse: { productoPagadoCV: [pagado, { ...pagado, numeroProducto: '2' }] } },
        { pagarProductoCVResponse: { productoPagadoCV: [] } },
      ],
    });
    expect(await pagar(pagarRequest(parties, '0001', 2))).toEqual({ kind: 'paid', idTransaccion: 'trx-9', pagados: [pagado] });
    expect(await pagar(pagarRequest(parties, '0001', 2))).toMatchObject({ kind: 'paid', pagados: [{}, {}] });
    const fault: unknown = await pagar(pagarRequest(parties, '0001', 2)).catch((error: unknown) => error);
    expect(isApiError(fault)).toBe(true);
  });
});
