import { FAMILIES, type Family } from '@pago/domain/families';
import type { Producto } from '@pago/domain/products';

/** Specification §4 'Step 1': families whose switch parameter is not '1' are removed from the member's list. */
export function visibleProducts(products: readonly Producto[], parameters: Readonly<Record<string, string>>): Producto[] {
  return products.filter((product) => parameters[product.tipoFamiliaProducto] === '1');
}

/** The families present in a product list, in the order of the specification's family list (§1). */
export function familiesOf(products: readonly Producto[]): Family[] {
  const present = new Set(products.map((product) => product.tipoFamiliaProducto));
  return FAMILIES.filter((family) => present.has(family));
}

export interface Offer {
  title: string;
  message: string;
}

/**
 * Specification §3 'Offers matrix': the texts of the families whose products with permiteAbono true are offered a
 * partial payment; it has one entry. The server already reports permiteAbono false once the promotion's
 * fechaVigenciaAbono has passed.
 */
export const OFFERS: Readonly<Partial<Record<Family, Offer>>> = {
  PC: {
    title: '¡Buena noticia!',
    message:
      'Ahora puedes pagar una parte del monto pendiente de las cuotas de tu Crédito de Consumo: abona lo que ' +
      'puedas, desde el monto mínimo, hasta completar tu cuota.',
  },
};

/** The offer that pressing `family` shows first (specification §4, 'Family offer'), or null. */
export function offerOf(family: Family, products: readonly Producto[]): Offer | null {
  const offer = OFFERS[family];
  return offer && products.some((product) => product.tipoFamiliaProducto === family && product.permiteAbono) ? offer : null;
}
