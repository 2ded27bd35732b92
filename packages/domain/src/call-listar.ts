// Call 2, the product list (spec §7.2). Its schemas are in schemas/call-listar.ts.

export const LISTAR_PRODUCTOS_PATH = '/prod/producto/listar';
export const LISTAR_PRODUCTOS_REQUEST = 'listarDetalleProductosRequest';
export const LISTAR_PRODUCTOS_RESPONSE = 'listarDetalleProductosResponse';
