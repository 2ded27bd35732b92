// Call 1, the parameters (spec §7.1). Its schemas are in schemas/call-parametros.ts.

export const CONSULTAR_PARAMETROS_PATH = '/prod/parametro/consultar';
export const CONSULTAR_PARAMETROS_REQUEST = 'consultarParametrosRequest';
export const CONSULTAR_PARAMETROS_RESPONSE = 'consultarParametrosResponse';
