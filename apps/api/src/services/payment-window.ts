import { isUnavailableHour } from '@pago/domain/business-time';
import type { ErrorCode } from '@pago/domain/errors';
import type { Family } from '@pago/domain/families';
import { familySwitchName, type ParameterMap } from '@pago/domain/parameters';

/**
 * Whether the operator's switches and the opening hours let a payment of `family` go on right now: checked by the
 * selection and again by every later call of a payment, so that closing takes effect on payments already under way.
 */
export function paymentWindowRefusal(params: Partial<ParameterMap>, family: Family, now: Date): ErrorCode | null {
  if (params.Mantencion === '1') return '503';
  if (params[familySwitchName(family)] !== '1') return '49010';
  if (params.CierreDiario === '1' || isUnavailableHour(family, now)) return '4953';
  return null;
}
