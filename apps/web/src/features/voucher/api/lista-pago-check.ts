import { MEDIO_PAGO_CUENTA_VISTA, MEDIO_PAGO_WEBPAY } from '@pago/domain/call-consultar-pago-plain';
import type { DetallePago, Pago } from '@pago/domain/call-consultar-pago';

/*
 * Call 7's answer checked without zod: the voucher's text waited for the schemas' chunk (about 24 KB gzip), which
 * on a slow connection arrived after the answer itself. The check is exactly as strict as the schema it replaces,
 * `{ listaPago: { pago: pagoSchema | pagoSchema[] (at least one) } }` of @pago/domain/call-consultar-pago:
 * lista-pago-check.test.ts holds the two to the same verdicts and the same result on generated answers, so a change
 * to pagoSchema that this file does not follow fails there.
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';
// zod's int(): a safe integer, so neither a fraction nor a number JSON rounded (1e400 parses as Infinity).
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

function readDetalle(value: unknown): DetallePago | null {
  if (!isObject(value)) return null;
  const { numeroCuota, montoPagado, numeroAutorizacion, cantidadCuotas } = value;
  if (!isInteger(numeroCuota) || !isInteger(montoPagado) || !isString(numeroAutorizacion) || !isInteger(cantidadCuotas)) {
    return null;
  }
  // A new object with the schema's fields only, as zod answers: nothing else the server sent is carried along.
  return { numeroCuota, montoPagado, numeroAutorizacion, cantidadCuotas };
}

function readPago(value: unknown): Pago | null {
  if (!isObject(value)) return null;
  const { numeroProducto, descripcionProducto, rutDeudor, fechaPago, horaPago, medioPago, idTransaccion, cuentaPago, email } =
    value;
  if (
    !isString(numeroProducto) ||
    !isString(descripcionProducto) ||
    !isString(rutDeudor) ||
    !isString(fechaPago) ||
    !isString(horaPago) ||
    !isString(idTransaccion) ||
    !isString(cuentaPago) ||
    !isString(email)
  ) {
    return null;
  }
  if (medioPago !== MEDIO_PAGO_CUENTA_VISTA && medioPago !== MEDIO_PAGO_WEBPAY) return null;
  let detallePago: DetallePago | DetallePago[];
  if (Array.isArray(value['detallePago'])) {
    // Array.from visits every index, holes included, as zod does.
    const detalles = Array.from(value['detallePago'] as unknown[], readDetalle);
    if (!detalles.every((detalle) => detalle !== null)) return null;
    detallePago = detalles;
  } else {
    const detalle = readDetalle(value['detallePago']);
    if (!detalle) return null;
    detallePago = detalle;
  }
  return {
    numeroProducto,
    descripcionProducto,
    detallePago,
    rutDeudor,
    fechaPago,
    horaPago,
    medioPago,
    idTransaccion,
    cuentaPago,
    email,
  };
}

/** The payments of call 7's response object (one or several, as a list), or null when it is not a voucher. */
export function readListaPago(response: unknown): Pago[] | null {
  if (!isObject(response)) return null;
  const lista = response['listaPago'];
  if (!isObject(lista)) return null;
  const pago = lista['pago'];
  if (!Array.isArray(pago)) {
    const one = readPago(pago);
    return one ? [one] : null;
  }
  if (pago.length === 0) return null;
  const pagos = Array.from(pago as unknown[], readPago);
  return pagos.every((one) => one !== null) ? pagos : null;
}
