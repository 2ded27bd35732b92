import { z } from 'zod';
import {
  CARD_DEPOSIT_CEILING_NAME,
  COMMERCE_CODE_NAMES,
  GRACE_DAYS_NAMES,
  PARAMETER_NAMES,
  TEXT_NAMES,
  hasName,
  type ParameterName,
} from '../parameters';

export const parameterNameSchema = z.enum(PARAMETER_NAMES);

const switchValue = z.enum(['0', '1'], { error: 'Debe ser 0 o 1' });
const boundedInteger = (min: number, max: number) =>
  z
    .string()
    // No sign, no spaces, no leading zeros: the value is read back with Number() by both sides.
    .regex(/^(0|[1-9]\d*)$/, { error: `Debe ser un número entero entre ${min} y ${max}` })
    .refine((v) => Number(v) >= min && Number(v) <= max, {
      error: `Debe ser un número entero entre ${min} y ${max}`,
    });
// Transbank commerce codes are 12 digits (e.g. 597055555536).
const commerceCode = z.string().regex(/^\d{12}$/, { error: 'Debe ser un código de comercio de 12 dígitos' });
const text = z
  .string()
  .refine((v) => v.trim() !== '', { error: 'No puede estar vacío' })
  .refine((v) => v.length <= 200, { error: 'No puede superar 200 caracteres' })
  // Neither a screen nor the database can hold a NUL or half of a UTF-16 surrogate pair.
  .refine((v) => !v.includes('\u0000') && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(v), {
    error: 'Contiene caracteres no válidos',
  });

export function parameterValueSchema(nombre: ParameterName): z.ZodType<string> {
  if (nombre === 'sessionTimeOut') return boundedInteger(1, 120);
  if (nombre === CARD_DEPOSIT_CEILING_NAME) return boundedInteger(1_000, 999_999_999_999);
  if (hasName(GRACE_DAYS_NAMES, nombre)) return boundedInteger(0, 999);
  if (hasName(COMMERCE_CODE_NAMES, nombre)) return commerceCode;
  if (hasName(TEXT_NAMES, nombre)) return text;
  return switchValue;
}

