import { asArray } from '@pago/domain/as-array';
import type { ConsultarParametrosRequest } from '@pago/domain/schemas/call-parametros';
import { CANAL, TIPO_PARAMETRO } from '@pago/domain/channel';
import type { DetalleError } from '@pago/domain/errors';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, postJson } from '../../../lib/api-client';
import { readEnvelopeError, readResponse } from '../../../lib/envelope';
import { loadAnswerSchemas } from '../../../lib/answer-schemas';
import { CONSULTAR_PARAMETROS } from '../../../lib/paths';

/** What the parameter call answered: the parameters, or a business error. */
export type ParametrosAnswer =
  | { kind: 'parameters'; parameters: Record<string, string> }
  | { kind: 'error'; error: DetalleError };

/** Throws ApiError when the call fails or the answer is not a parameter response. */
export async function consultarParametros(rut: string): Promise<ParametrosAnswer> {
  const schemas = loadAnswerSchemas();
  const request: ConsultarParametrosRequest = {
    consultarParametrosRequest: { userId: rut, canalLlamada: CANAL, tipo: TIPO_PARAMETRO },
  };
  const response = readResponse(await postJson(CONSULTAR_PARAMETROS.path, request), CONSULTAR_PARAMETROS.response);
  const error = response && readEnvelopeError(response);
  if (error) return { kind: 'error', error };
  const parsed = (await schemas).consultarParametrosOkSchema.safeParse(response);
  // A 2xx answer that is neither parameters nor an error is a server fault, like a 5xx.
  if (!parsed.success) throw new ApiError('parse', CONSULTAR_PARAMETROS.path, 200);
  const parameters: Record<string, string> = {};
  for (const { nombre, valor } of asArray(parsed.data.listaParametros.parametro)) parameters[nombre] = valor;
  return { kind: 'parameters', parameters };
}

/**
 * The call with its pending flag. Plain state rather than TanStack Query's useMutation: the home has one call
 * and no cache, and leaving Query out keeps the home's first load small.
 */
export function useConsultarParametros() {
  const [isPending, setPending] = useState(false);
  // The answer's schemas arrive while the member types the RUT, after the home has painted.
  useEffect(() => {
    loadAnswerSchemas().catch(() => {});
  }, []);
  const run = useCallback(async (rut: string): Promise<ParametrosAnswer> => {
    setPending(true);
    try {
      return await consultarParametros(rut);
    } finally {
      setPending(false);
    }
  }, []);
  return { run, isPending };
}
