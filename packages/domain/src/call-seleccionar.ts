// Call 3, the selection (spec §7.3). Its schemas are in schemas/call-seleccionar.ts.

export const SELECCIONAR_PRODUCTO_PATH = '/prod/producto/seleccionar';
export const SELECCIONAR_PRODUCTO_REQUEST = 'seleccionarProductoRequest';
export const SELECCIONAR_PRODUCTO_RESPONSE = 'seleccionarProductoResponse';
/** The `codigo` of a call's successful answer (calls 3, 4, 5, 8, 11). */
export const CODIGO_OK = '200' as const;
