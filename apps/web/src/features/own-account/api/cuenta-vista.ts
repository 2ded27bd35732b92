import { asArray } from '@pago/domain/as-array';
import {
  autenticaOkSchema,
  autorizarOkSchema,
  pagarOkSchema,
  type Factor,
  type ProductoPagado,
} from '@pago/domain/schemas/answers';
import type { AutenticaRequest, AutorizarRequest, PagarRequest } from '@pago/domain/schemas/call-cuenta-vista';
import {
  AUTENTICA_PATH,
  AUTENTICA_REQUEST,
  AUTENTICA_RESPONSE,
  AUTORIZAR_PATH,
  AUTORIZAR_REQUEST,
  AUTORIZAR_RESPONSE,
  PAGAR_PATH,
  PAGAR_REQUEST,
  PAGAR_RESPONSE,
} from '@pago/domain/call-cuenta-vista';
import { CANAL } from '@pago/domain/channel';
import type { DetalleError } from '@pago/domain/errors';
import { splitRut } from '@pago/domain/rut';
import { ApiError } from '../../../lib/api-client';
import { postEnvelope } from '../../../lib/post-envelope';

// Calls 4, 5 and 6 (specification §7). They act on the session's current transaction, the one call 3 created in
// step 3. Each answer is a value: what the call gave, or its business error. A call without a business answer
// (network, non-2xx, an answer of the wrong shape) throws ApiError.

type BusinessError = { kind: 'error'; error: DetalleError };

/** Who pays for whom: the member (owner of the session and the products) and the payer who logs in. */
export interface Parties {
  /** Session token from the product list. */
  token: string;
  /** Canonical RUT of the member whose products are paid. */
  memberRut: string;
  /** Canonical RUT of the payer: the member, or a third party. */
  payerRut: string;
}

/** Call 4's body: the payer's RUT without its check digit, the check digit and the password. */
export function autenticaRequest(token: string, payerRut: string, clave: string): AutenticaRequest {
  const { numero, dv } = splitRut(payerRut);
  return {
    [AUTENTICA_REQUEST]: { userId: payerRut, canalLlamada: CANAL, token, autenticacion: { rut: numero, dv, clave } },
  };
}

export type AutenticaAnswer = { kind: 'login'; numeroCuenta: string; factores: Factor[] } | BusinessError;

/** Call 4, with a solved captcha in the Authorization header (the server spends it). */
export async function autentica(request: AutenticaRequest, captcha: string): Promise<AutenticaAnswer> {
  const answer = await postEnvelope(AUTENTICA_PATH, request, AUTENTICA_RESPONSE, { headers: { Authorization: captcha } });
  if (answer.kind === 'error') return answer;
  const parsed = autenticaOkSchema.safeParse(answer.response);
  if (!parsed.success) throw new ApiError('parse', AUTENTICA_PATH, 200);
  const factores = [...new Set(parsed.data.factores.map((f) => f.factor))];
  return { kind: 'login', numeroCuenta: parsed.data.numeroCuenta, factores };
}

/** Call 5's body: the member (rut), the payer (rutPago) and the factor asked for. */
export function autorizarRequest({ token, memberRut, payerRut }: Parties, factor: Factor): AutorizarRequest {
  return {
    [AUTORIZAR_REQUEST]: { userId: payerRut, canalLlamada: CANAL, token, factor, rut: memberRut, rutPago: payerRut },
  };
}

export type AutorizarAnswer =
  | {
      kind: 'authorization';
      numeroCuenta: string;
      /** Factor 1: the three cells to answer ('B3'); factor 2: none. */
      cells: string[];
      /** Seconds the challenge or the push stays valid. */
      vigencia: number;
    }
  | BusinessError;

/** Call 5: a coordinate challenge (factor 1) or a push to the payer's authoriser app (factor 2). */
export async function autorizar(request: AutorizarRequest): Promise<AutorizarAnswer> {
  const answer = await postEnvelope(AUTORIZAR_PATH, request, AUTORIZAR_RESPONSE);
  if (answer.kind === 'error') return answer;
  const parsed = autorizarOkSchema.safeParse(answer.response);
  if (!parsed.success) throw new ApiError('parse', AUTORIZAR_PATH, 200);
  const cells = (parsed.data.desafio?.item ?? []).map((item) => item.valor);
  // Factor 1 without exactly three cells cannot be answered: a server fault, like a 5xx.
  if (request[AUTORIZAR_REQUEST].factor === 1 && cells.length !== 3) throw new ApiError('parse', AUTORIZAR_PATH, 200);
  return { kind: 'authorization', numeroCuenta: parsed.data.numeroCuenta, cells, vigencia: parsed.data.vigencia };
}

/**
 * Call 6's body. rutTitular is the member whose products are paid (the session's RUT), rutPago the payer who
 * logged in; `valores` are the three coordinate values, in the order of the cells (factor 1 only).
 */
export function pagarRequest(
  { token, memberRut, payerRut }: Parties,
  numeroCuenta: string,
  factor: Factor,
  valores?: readonly string[],
): PagarRequest {
  return {
    [PAGAR_REQUEST]: {
      userId: payerRut,
      canalLlamada: CANAL,
      token,
      rutTitular: memberRut,
      numeroCuenta,
      rutPago: payerRut,
      factor,
      ...(factor === 1 && valores ? { desafio: { item: valores.map((valor) => ({ valor })) } } : {}),
    },
  };
}

export type PagarAnswer = { kind: 'paid'; idTransaccion: string; pagados: ProductoPagado[] } | BusinessError;

/** Call 6: pays (factor 1) or asks whether the push was approved and then pays (factor 2; 25 means 'not yet'). */
export async function pagar(request: PagarRequest): Promise<PagarAnswer> {
  const answer = await postEnvelope(PAGAR_PATH, request, PAGAR_RESPONSE);
  if (answer.kind === 'error') return answer;
  const parsed = pagarOkSchema.safeParse(answer.response);
  const pagados = parsed.success ? asArray(parsed.data.productoPagadoCV) : [];
  const idTransaccion = pagados[0]?.idTransaccion;
  if (!idTransaccion) throw new ApiError('parse', PAGAR_PATH, 200);
  return { kind: 'paid', idTransaccion, pagados };
}
