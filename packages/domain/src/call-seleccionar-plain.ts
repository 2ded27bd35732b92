// The zod-free part of call-seleccionar.ts, which re-exports all of it: step 3 sends call 3 with these.

export const SELECCIONAR_PRODUCTO_PATH = '/prod/producto/seleccionar';
export const SELECCIONAR_PRODUCTO_REQUEST = 'seleccionarProductoRequest';
export const SELECCIONAR_PRODUCTO_RESPONSE = 'seleccionarProductoResponse';
/** The `codigo` of a call's successful answer (calls 3, 4, 5, 8, 11). */
export const CODIGO_OK = '200' as const;
