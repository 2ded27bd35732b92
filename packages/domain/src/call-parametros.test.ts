import { describe, expect, it } from 'vitest';
import { CONSULTAR_PARAMETROS_PATH, CONSULTAR_PARAMETROS_RESPONSE } from './call-parametros';
import { consultarParametrosOkSchema, consultarParametrosRequestSchema } from './schemas/call-parametros';
import { answerSchema } from './schemas/answers';
import { CANAL, CANAL_SPUB, TIPO_PARAMETRO } from './channel';
import { errorEnvelope } from './envelope';

const consultarParametrosResponseSchema = answerSchema(CONSULTAR_PARAMETROS_RESPONSE, consultarParametrosOkSchema);
const request = { consultarParametrosRequest: { userId: 'web', canalLlamada: CANAL, tipo: TIPO_PARAMETRO } };

describe('consultar parámetros', () => {
  it('has the path and names of spec §7.1', () => {
    expect(CONSULTAR_PARAMETROS_PATH).toBe('/prod/parametro/consultar');
    expect(CONSULTAR_PARAMETROS_RESPONSE).toBe('consultarParametrosResponse');
    expect([CANAL, CANAL_SPUB, TIPO_PARAMETRO]).toEqual(['PGEX', 'SPUB', 'PE']);
  });

  it('accepts the request of the spec', () => {
    expect(consultarParametrosRequestSchema.parse(request)).toEqual(request);
    const spub = { consultarParametrosRequest: { ...request.consultarParametrosRequest, canalLlamada: 'SPUB' } };
    expect(consultarParametrosRequestSchema.safeParse(spub).success).toBe(true);
  });

  it.each([
    {},
    { consultarParametrosRequest: { ...request.consultarParametrosRequest, tipo: 'XX' } },
    { consultarParametrosRequest: { ...request.consultarParametrosRequest, canalLlamada: 'WEB' } },
    { consultarParametrosRequest: { ...request.consultarParametrosRequest, userId: '' } },
    { consultarParametrosRequest: { ...request.consultarParametrosRequest, userId: 'x'.repeat(65) } },
    { consultarParametrosRequest: { ...request.consultarParametrosRequest, extra: 1 } },
    { ...request, extra: 1 },
  ])('rejects %j', (body) => {
    expect(consultarParametrosRequestSchema.safeParse(body).success).toBe(false);
  });

  it('accepts either the parameter list or the error', () => {
    const ok = { consultarParametrosResponse: { listaParametros: { parametro: [{ nombre: 'Mantencion', valor: '0' }] } } };
    expect(consultarParametrosResponseSchema.parse(ok)).toEqual(ok);
    const one = { consultarParametrosResponse: { listaParametros: { parametro: { nombre: 'Mantencion', valor: '0' } } } };
    expect(consultarParametrosResponseSchema.parse(one)).toEqual(one);
    const error = errorEnvelope(CONSULTAR_PARAMETROS_RESPONSE, '503');
    expect(consultarParametrosResponseSchema.parse(error)).toEqual(error);
  });

  it('rejects anything else', () => {
    for (const body of [{}, { consultarParametrosResponse: {} }, { consultarParametrosResponse: { listaParametros: {} } }]) {
      expect(consultarParametrosResponseSchema.safeParse(body).success).toBe(false);
    }
  });
});
