import { describe, expect, it } from 'vitest';
import { familiesOf, OFFERS, offerOf, visibleProducts } from './product-families';
import { everyFamily, product, detalle, SEED_PARAMETERS } from './test-builders';

describe('visibleProducts', () => {
  it('keeps the families whose switch is 1', () => {
    expect(visibleProducts(everyFamily(), SEED_PARAMETERS)).toHaveLength(6);
  });

  it("drops the families whose switch is '0', missing or anything but '1'", () => {
    const parameters = { ...SEED_PARAMETERS, TC: '0', AH: ' 1' } as Record<string, string>;
    delete parameters['PM'];
    const kept = visibleProducts(everyFamily(), parameters).map((p) => p.tipoFamiliaProducto);
    expect(kept).toEqual(['PC', 'HI', 'CP']);
  });

  it('drops everything without parameters', () => {
    expect(visibleProducts(everyFamily(), {})).toEqual([]);
  });
});

describe('familiesOf', () => {
  it("lists each family once, in the specification's order", () => {
    const products = [...everyFamily(), product('PC', '410087654321', [detalle(11, '20300616')])].reverse();
    expect(familiesOf(products)).toEqual(['PC', 'CP', 'HI', 'TC', 'PM', 'AH']);
  });

  it('is empty for no products', () => {
    expect(familiesOf([])).toEqual([]);
  });
});

describe('offerOf', () => {
  const pc = (permiteAbono: boolean, numero = '410012345678') =>
    product('PC', numero, [detalle(21, '20300612')], { permiteAbono });

  it('offers on the consumer-credit button when a consumer credit has permiteAbono', () => {
    expect(offerOf('PC', [pc(false, '1'), pc(true, '2')])).toBe(OFFERS.PC);
    expect(OFFERS.PC?.title).toBe('¡Buena noticia!');
  });

  it('does not offer when no consumer credit has permiteAbono', () => {
    expect(offerOf('PC', [pc(false)])).toBeNull();
  });

  it('does not offer on another family, even with permiteAbono there', () => {
    const pm = product('PM', '5', [detalle(1, '20300612')], { permiteAbono: true });
    expect(offerOf('PM', [pm, pc(true)])).toBeNull();
    expect(offerOf('PC', [pm])).toBeNull();
  });
});
