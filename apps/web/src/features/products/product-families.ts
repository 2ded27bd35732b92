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

/**
 * Specification §3 'Offers matrix': one entry, family PC with permiteAbono true. The server already reports
 * permiteAbono false once the promotion's fechaVigenciaAbono has passed.
 */
export const OFFER = {
  family: 'PC',
  title: '¡Buena noticia!',
  message:
    'Ahora puedes pagar una parte del monto pendiente de las cuotas de tu Crédito de Consumo: abona lo que ' +
    'puedas, desde el monto mínimo, hasta completar tu cuota.',
} as const satisfies { family: Family; title: string; message: string };

/** Pressing `family` first shows the partial-payment offer (specification §4, 'Family offer'). */
export function offersPartialPayment(family: Family, products: readonly Producto[]): boolean {
  return (
    family === OFFER.family &&
    products.some((product) => product.tipoFamiliaProducto === OFFER.family && product.permiteAbono)
  );
}
