// The zod-free part of call-listar.ts, which re-exports all of it: step 1 sends call 2 with these, and downloads the
// validation library only to read the answer.

export const LISTAR_PRODUCTOS_PATH = '/prod/producto/listar';
export const LISTAR_PRODUCTOS_REQUEST = 'listarDetalleProductosRequest';
export const LISTAR_PRODUCTOS_RESPONSE = 'listarDetalleProductosResponse';
