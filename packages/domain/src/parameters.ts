import { z } from 'zod';
import type { Family } from './families';

const SWITCH_NAMES = ['CierreDiario', 'Mantencion', 'PC', 'PM', 'TC', 'CP', 'HI', 'AH'] as const;
// Spec §7.1 says "diasMora{PC,PM,TC,CP,HI (AH uses a key named AH)}", but 'AH' is already the savings switch;
// one name cannot hold both a switch and a number of days, so the savings grace key is diasMoraAH.
const GRACE_DAYS_NAMES = ['diasMoraPC', 'diasMoraPM', 'diasMoraTC', 'diasMoraCP', 'diasMoraHI', 'diasMoraAH'] as const;
const WEBPAY_SWITCH_NAMES = [
  'pagoWebPayPC',
  'pagoWebPayPM',
  'pagoWebPayTC',
  'pagoWebPayCP',
  'pagoWebPayHI',
  'pagoWebPayAH',
] as const;
const COMMERCE_CODE_NAMES = ['pagoWPDebitoCredito', 'pagoWPDebito'] as const;
// No btnPayAH: the savings step's button is always 'Continuar'.
const PAY_BUTTON_NAMES = ['btnPayPC', 'btnPayCP', 'btnPayHI', 'btnPayTC', 'btnPayPM'] as const;
const DEBIT_CREDIT_SWITCH_NAMES = [
  'pagoDebitoCreditoPC',
  'pagoDebitoCreditoPM',
  'pagoDebitoCreditoTC',
  'pagoDebitoCreditoCP',
  'pagoDebitoCreditoHI',
  'pagoDebitoCreditoAH',
] as const;
const TEXT_NAMES = ['medioPagoWP', ...PAY_BUTTON_NAMES, 'cancelTrxMsg'] as const;

export const PARAMETER_NAMES = [
  'sessionTimeOut',
  ...SWITCH_NAMES,
  ...GRACE_DAYS_NAMES,
  ...WEBPAY_SWITCH_NAMES,
  ...COMMERCE_CODE_NAMES,
  'medioPagoWP',
  ...PAY_BUTTON_NAMES,
  ...DEBIT_CREDIT_SWITCH_NAMES,
  'cancelTrxMsg',
] as const;

export const parameterNameSchema = z.enum(PARAMETER_NAMES);
export type ParameterName = z.infer<typeof parameterNameSchema>;

export type ParameterMap = Record<ParameterName, string>;

export function isParameterName(x: unknown): x is ParameterName {
  return typeof x === 'string' && (PARAMETER_NAMES as readonly string[]).includes(x);
}

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

function hasName<T extends string>(names: readonly T[], nombre: string): nombre is T {
  return (names as readonly string[]).includes(nombre);
}

export function parameterValueSchema(nombre: ParameterName): z.ZodType<string> {
  if (nombre === 'sessionTimeOut') return boundedInteger(1, 120);
  if (hasName(GRACE_DAYS_NAMES, nombre)) return boundedInteger(0, 999);
  if (hasName(COMMERCE_CODE_NAMES, nombre)) return commerceCode;
  if (hasName(TEXT_NAMES, nombre)) return text;
  return switchValue;
}

/** Unknown names are dropped; for a repeated name the last value wins. Values are not validated here. */
export function toParameterMap(list: readonly { nombre: string; valor: string }[]): Partial<ParameterMap> {
  const map: Partial<ParameterMap> = {};
  for (const { nombre, valor } of list) {
    if (isParameterName(nombre)) map[nombre] = valor;
  }
  return map;
}

export function isSwitchOn(value: string | undefined): boolean {
  return value === '1';
}

export function familySwitchName(family: Family): ParameterName {
  return family;
}

export function graceDaysName(family: Family): ParameterName {
  return `diasMora${family}`;
}

export function webPaySwitchName(family: Family): ParameterName {
  return `pagoWebPay${family}`;
}

export function debitCreditSwitchName(family: Family): ParameterName {
  return `pagoDebitoCredito${family}`;
}

/** null for AH, which has no configurable pay button. */
export function payButtonName(family: Family): ParameterName | null {
  return family === 'AH' ? null : `btnPay${family}`;
}
