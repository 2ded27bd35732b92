import { LISTAR_PRODUCTOS_RESPONSE } from '@pago/domain/call-listar';
import { listarProductosOkSchema } from '@pago/domain/schemas/call-listar';
import { errorEnvelope } from '@pago/domain/envelope';
import { FAMILIES } from '@pago/domain/families';
import fc from 'fast-check';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { compiledSerializer, envelopeResponses } from './responses';

const detalle = fc.record({
  numeroCuota: fc.nat(),
  montoPendiente: fc.nat(),
  pagoMinimo: fc.nat(),
  fechaVencimiento: fc.string(),
  codigoEstadoCuota: fc.constantFrom('V' as const, 'A' as const),
  diasMora: fc.nat(),
  medioPago: fc.string(),
});
const producto = fc.record(
  {
    tipoFamiliaProducto: fc.constantFrom(...FAMILIES),
    nombreFamiliaProducto: fc.string(),
    numeroProducto: fc.string(),
    listaDetalleProductos: fc.oneof(detalle, fc.array(detalle, { maxLength: 50 })),
    permiteAbono: fc.boolean(),
    permiteMultipleAbono: fc.boolean(),
    montoMinimoAbonoMultiple: fc.nat(),
    fechaVigenciaAbono: fc.string(),
    fechaFacturacion: fc.string(),
  },
  { requiredKeys: ['tipoFamiliaProducto', 'nombreFamiliaProducto', 'numeroProducto', 'listaDetalleProductos', 'permiteAbono', 'permiteMultipleAbono', 'montoMinimoAbonoMultiple', 'fechaVigenciaAbono'] },
);
const listing = fc.record({ token: fc.string({ minLength: 1 }), listaProductos: fc.array(producto, { maxLength: 6 }) });

describe('the product list’s compiled serialiser', () => {
  const schema = envelopeResponses(LISTAR_PRODUCTOS_RESPONSE, listarProductosOkSchema)[200];
  const compiled = compiledSerializer({ schema });
  const zod = serializerCompiler({ schema, method: 'POST', url: '/' } as never) as (data: unknown) => string;

  it('writes every answer as zod’s encoding does, the error envelope too', () => {
    fc.assert(
      fc.property(listing, (ok) => {
        const answer = { [LISTAR_PRODUCTOS_RESPONSE]: ok };
        expect(compiled(answer)).toBe(zod(answer));
      }),
    );
    const refusal = errorEnvelope(LISTAR_PRODUCTOS_RESPONSE, '482');
    expect(compiled(refusal)).toBe(zod(refusal));
  });

  it('fails an answer with a field its schema does not name, or a value of the wrong type, rather than send it', () => {
    const ok = { token: 't', listaProductos: [] };
    expect(() => compiled({ [LISTAR_PRODUCTOS_RESPONSE]: { ...ok, listaProductos: [{ internalId: 'x' }] } })).toThrow();
    expect(() => compiled({ [LISTAR_PRODUCTOS_RESPONSE]: { ...ok, rut: '11111111-1' } })).toThrow();
    expect(() => compiled({ [LISTAR_PRODUCTOS_RESPONSE]: { ...ok, token: 42 } })).toThrow();
  });
});
