// Calls 4, 5 and 6, the own-account payment (spec §7.4–7.6). Their schemas are in schemas/call-cuenta-vista.ts.

export const AUTENTICA_PATH = '/prod/pago/producto/cuentavista/autentica';
export const AUTENTICA_REQUEST = 'autenticaConsultaFactoresRequest';
export const AUTENTICA_RESPONSE = 'autenticaConsultaFactoresResponse';
export const AUTORIZAR_PATH = '/prod/pago/producto/cuentavista/autorizar';
export const AUTORIZAR_REQUEST = 'autorizarPagoProductoCVRequest';
export const AUTORIZAR_RESPONSE = 'autorizarPagoProductoCVResponse';
export const PAGAR_PATH = '/prod/pago/producto/cuentavista/pagar';
export const PAGAR_REQUEST = 'pagarProductoCVRequest';
export const PAGAR_RESPONSE = 'pagarProductoCVResponse';

/** Spec §9: the online password has at most 8 characters. */
export const PASSWORD_MAX_LENGTH = 8;
/** Spec §9: the authorisation countdown. */
export const AUTHORISATION_SECONDS = 120;
/** The factors of calls 5 and 6: 1 the coordinate card, 2 the mobile authoriser. */
export const COORDINATE_FACTOR = 1;
export const AUTHORISER_FACTOR = 2;
