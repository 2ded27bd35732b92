import { asArray } from '@pago/domain/as-array';
import type { ConsultarParametrosRequest } from '@pago/domain/call-parametros';
import { CANAL, TIPO_PARAMETRO } from '@pago/domain/channel';
import type { DetalleError } from '@pago/domain/errors-plain';
import { useCallback, useState } from 'react';
import { ApiError, postJson } from '../../../lib/api-client';
import { readEnvelopeError, readResponse } from '../../../lib/envelope';
import { CONSULTAR_PARAMETROS } from '../../../lib/paths';

/** What the parameter call answered: the parameters, or a business error. */
export type ParametrosAnswer =
  | { kind: 'parameters'; parameters: Record<string, string> }
  | { kind: 'error'; error: DetalleError };

/** Throws ApiError when the call fails or the answer is not a parameter response. */
export async function consultarParametros(rut: string): Promise<ParametrosAnswer> {
  const request: ConsultarParametrosRequest = {
    consultarParametrosRequest: { userId: rut, canalLlamada: CANAL, tipo: TIPO_PARAMETRO },
  };
  return readParametrosAnswer(await postJson(CONSULTAR_PARAMETROS.path, request));
}

export function readParametrosAnswer(body: unknown): ParametrosAnswer {
  const response = readResponse(body, CONSULTAR_PARAMETROS.response);
  if (response) {
    const error = readEnvelopeError(response);
    if (error) return { kind: 'error', error };
    const lista = response['listaParametros'];
    if (typeof lista === 'object' && lista !== null && 'parametro' in lista) {
      const parameters: Record<string, string> = {};
      for (const item of asArray<unknown>(lista.parametro)) {
        if (typeof item !== 'object' || item === null) continue;
        const { nombre, valor } = item as { nombre?: unknown; valor?: unknown };
        if (typeof nombre === 'string' && typeof valor === 'string') parameters[nombre] = valor;
      }
      return { kind: 'parameters', parameters };
    }
  }
  // A 2xx answer that is neither parameters nor an error is a server fault, like a 5xx.
  throw new ApiError('parse', CONSULTAR_PARAMETROS.path, 200);
}

/**
 * The call with its pending flag. Plain state rather than TanStack Query's useMutation: the home has one call
 * and no cache, and leaving Query out keeps the home's first load small.
 */
export function useConsultarParametros() {
  const [isPending, setPending] = useState(false);
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
