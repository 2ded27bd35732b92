import { describe, expect, it } from 'vitest';
import { applyGraceFilter, cardMethodOffered, instalmentState, maskProductNumber, type DetalleCuota, type Producto } from './products';

const cuota = (numeroCuota: number, estado: 'V' | 'A', diasMora: number): DetalleCuota => ({
  numeroCuota,
  montoPendiente: 100_000,
  pagoMinimo: 100_000,
  fechaVencimiento: '20261101',
  codigoEstadoCuota: estado,
  diasMora,
  medioPago: '',
});

const producto = (numeroProducto: string, detalles: DetalleCuota[]): Producto => ({
  tipoFamiliaProducto: 'HI',
  nombreFamiliaProducto: 'Crédito Hipotecario',
  numeroProducto,
  listaDetalleProductos: detalles,
  permiteAbono: false,
  permiteMultipleAbono: false,
  montoMinimoAbonoMultiple: 0,
  fechaVigenciaAbono: '',
});

describe('instalment state', () => {
  it('is current on and before the due date, overdue by whole days after it', () => {
    expect(instalmentState('20261121', '20261121')).toEqual({ codigoEstadoCuota: 'A', diasMora: 0 });
    expect(instalmentState('20261201', '20261121')).toEqual({ codigoEstadoCuota: 'A', diasMora: 0 });
    expect(instalmentState('20261120', '20261121')).toEqual({ codigoEstadoCuota: 'V', diasMora: 1 });
    expect(instalmentState('20261007', '20261121')).toEqual({ codigoEstadoCuota: 'V', diasMora: 45 });
  });
});

describe('grace filter', () => {
  it('shows everything when nothing is past the grace days', () => {
    const products = [producto('1', [cuota(1, 'V', 30), cuota(2, 'A', 0)])];
    expect(applyGraceFilter(products, 30)).toEqual({ products, restricted: false, hiddenInstalments: false });
  });

  it('shows only the past-grace products and instalments, and says when it hid some', () => {
    const overdue = producto('1', [cuota(61, 'V', 75), cuota(62, 'V', 45), cuota(63, 'A', 0)]);
    const current = producto('2', [cuota(7, 'A', 0)]);
    const view = applyGraceFilter([overdue, current], 30);
    expect(view.restricted).toBe(true);
    expect(view.hiddenInstalments).toBe(true);
    expect(view.products.map((p) => p.numeroProducto)).toEqual(['1']);
    expect((view.products[0]!.listaDetalleProductos as DetalleCuota[]).map((d) => d.numeroCuota)).toEqual([61, 62]);
  });

  it('hides nothing when every instalment is past grace', () => {
    const view = applyGraceFilter([producto('1', [cuota(1, 'V', 90), cuota(2, 'V', 60)])], 30);
    expect(view).toMatchObject({ restricted: true, hiddenInstalments: false });
  });
});

describe('card method offer', () => {
  const params = (webPay: string) => ({ pagoWebPayHI: webPay, diasMoraHI: '30' });
  it('follows the switch, or the all-past-grace rule', () => {
    expect(cardMethodOffered('HI', params('1'), [cuota(1, 'A', 0)])).toBe(true);
    expect(cardMethodOffered('HI', params('0'), [cuota(1, 'A', 0)])).toBe(false);
    expect(cardMethodOffered('HI', params('0'), [cuota(1, 'V', 45), cuota(2, 'V', 75)])).toBe(true);
    expect(cardMethodOffered('HI', params('0'), [cuota(1, 'V', 45), cuota(2, 'V', 20)])).toBe(false);
    expect(cardMethodOffered('HI', params('0'), [cuota(1, 'V', 30)])).toBe(false);
    expect(cardMethodOffered('HI', params('0'), [])).toBe(false);
  });

  it('reads the switch and the grace days of the family paid, not of another', () => {
    expect(cardMethodOffered('PC', params('1'), [cuota(1, 'A', 0)])).toBe(false);
    expect(cardMethodOffered('PC', { ...params('0'), diasMoraPC: '60' }, [cuota(1, 'V', 45)])).toBe(false);
    expect(cardMethodOffered('PC', { ...params('0'), diasMoraPC: '40' }, [cuota(1, 'V', 45)])).toBe(true);
  });
});

describe('product number mask', () => {
  it('keeps only the last four characters', () => {
    expect(maskProductNumber('410012345678')).toBe('****5678');
    expect(maskProductNumber('5412751234567890')).toBe('****7890');
    expect(maskProductNumber('12')).toBe('******12');
  });
});
