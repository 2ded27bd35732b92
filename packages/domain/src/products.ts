export * from './products-plain';
// The product list's shapes are answers of call 2: defined in answers.ts, offered here beside the rules on products.
export {
  detalleCuotaSchema,
  estadoCuotaSchema,
  productoSchema,
  type DetalleCuota,
  type EstadoCuota,
  type Producto,
} from './answers';
