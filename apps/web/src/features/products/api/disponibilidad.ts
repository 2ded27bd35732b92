import { AVAILABILITY_PATH, type FamilyAvailability } from '@pago/domain/business-time';
import { ApiError } from '../../../lib/api-client';
import { loadAnswerSchemas } from '../../../lib/answer-schemas';

/**
 * The families' availability by the server's business clock. Throws ApiError when there is no usable answer: the
 * screens then let the member go on, and the server's own check at every call of the payment is what stops them.
 */
export async function consultarDisponibilidad(): Promise<FamilyAvailability[]> {
  const schemas = loadAnswerSchemas();
  let response: Response;
  try {
    response = await fetch(AVAILABILITY_PATH, { headers: { Accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
  } catch (cause) {
    throw new ApiError('network', AVAILABILITY_PATH, null, null, { cause });
  }
  if (!response.ok) throw new ApiError('http', AVAILABILITY_PATH, response.status);
  const parsed = (await schemas).disponibilidadOkSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new ApiError('parse', AVAILABILITY_PATH, response.status);
  return parsed.data.disponibilidad;
}
