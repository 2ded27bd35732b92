// The product list's shapes are answers of call 2, defined in answers.ts; offered here under the products' name.
export {
  detalleCuotaSchema,
  estadoCuotaSchema,
  productoSchema,
  type DetalleCuota,
  type EstadoCuota,
  type Producto,
} from './answers';
