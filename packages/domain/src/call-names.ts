// No zod here: the catalogue's texts (errors.ts) cite these names, and screens import those texts.

/** Short names of the calls of spec §7, as the error catalogue and its documentation cite them. */
export const CALL_NAMES = [
  'parametro/consultar',
  'producto/listar',
  'producto/seleccionar',
  'cuentavista/autentica',
  'cuentavista/autorizar',
  'cuentavista/pagar',
  'pago/consultar',
  'notificaciones/enviar',
  'pagoexpress/auth',
  'pagoexpress/initMall',
  'auditoria/guardarlog',
  // The mobile authoriser's device calls (docs/authoriser.md), beyond the spec.
  'autorizador/enrolar',
  'autorizador/pendientes',
  'autorizador/decision',
] as const;

export type CallName = (typeof CALL_NAMES)[number];
