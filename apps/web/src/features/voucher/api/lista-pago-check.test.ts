import { asArray } from '@pago/domain/as-array';
import { pagoSchema } from '@pago/domain/call-consultar-pago';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readListaPago } from './lista-pago-check';
import { samplePago } from '../voucher-test-fixtures';

// What the voucher checked call 7's answer with before: the screen no longer downloads it, and the plain check must
// give the same verdict and the same payments on every answer.
const listaPagoSchema = z.object({
  listaPago: z.object({ pago: z.union([pagoSchema, z.array(pagoSchema).min(1)]) }),
});

function bySchema(response: unknown) {
  const parsed = listaPagoSchema.safeParse(response);
  return parsed.success ? asArray(parsed.data.listaPago.pago) : null;
}

const pago = samplePago();
const detalle = pago.detallePago;

// Values a field may wrongly hold, JSON's and the edges of the schema's checks.
const oddValue = fc.oneof(
  fc.constantFrom(null, true, false, '', 'WEBPAY', 'CUENTA VISTA', 'cuenta vista', 0, -0, 1.5, -1, 2 ** 53, 2 ** 53 - 1, -(2 ** 53)),
  fc.constantFrom(Infinity, -Infinity, Number.NaN, [], {}, [detalle], [[]], '9'),
  fc.double(),
  fc.integer(),
  fc.string(),
  fc.jsonValue({ maxDepth: 2 }),
);

type Change = 'set' | 'delete' | 'extra';

/** A field changed, removed or added, somewhere in the answer (or nothing changed). */
function mutate(value: unknown, path: readonly (string | number)[], change: Change, odd: unknown): unknown {
  if (path.length === 0) return change === 'set' ? odd : value;
  if (typeof value !== 'object' || value === null) return value;
  const [head, ...rest] = path;
  const last = rest.length === 0;
  if (Array.isArray(value)) {
    const copy: unknown[] = [...(value as unknown[])];
    const index = Number(head);
    if (Number.isNaN(index)) return copy;
    if (last && change === 'delete') copy.splice(index, 1);
    else copy[index] = mutate(copy[index], rest, change, odd);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const key = String(head);
  if (last && change === 'delete') delete copy[key];
  else if (last && change === 'extra') copy[`otro${key}`] = odd;
  else copy[key] = mutate(copy[key], rest, change, odd);
  return copy;
}

const pagoFields = Object.keys(pago);
const detalleFields = Object.keys(detalle);
const validPago = fc.record({
  ...Object.fromEntries(pagoFields.map((field) => [field, fc.string()])),
  medioPago: fc.constantFrom('CUENTA VISTA', 'WEBPAY'),
  detallePago: fc.oneof(
    fc.record({
      numeroCuota: fc.maxSafeInteger(),
      montoPagado: fc.maxSafeInteger(),
      numeroAutorizacion: fc.string(),
      cantidadCuotas: fc.maxSafeInteger(),
    }),
    fc.array(fc.constant(detalle), { maxLength: 3 }),
  ),
});
const answer = fc.oneof(
  validPago.map((one) => ({ listaPago: { pago: one } })),
  fc.array(validPago, { minLength: 0, maxLength: 3 }).map((all) => ({ listaPago: { pago: all } })),
);
const path = fc.oneof(
  fc.constant([] as (string | number)[]),
  fc.constantFrom<(string | number)[]>(['listaPago'], ['listaPago', 'pago'], ['listaPago', 'pago', 0], ['listaPago', 'pago', 1]),
  fc.constantFrom(...pagoFields).map((field) => ['listaPago', 'pago', field]),
  fc.constantFrom(...pagoFields).map((field) => ['listaPago', 'pago', 0, field]),
  fc.constantFrom(...detalleFields).map((field) => ['listaPago', 'pago', 'detallePago', field]),
  fc.constantFrom(...detalleFields).map((field) => ['listaPago', 'pago', 'detallePago', 0, field]),
  fc.constantFrom(...detalleFields).map((field) => ['listaPago', 'pago', 1, 'detallePago', 0, field]),
);

describe("call 7's answer, checked without zod", () => {
  it('reads one payment or a list of them, with only the fields of the schema', () => {
    const extra = { ...pago, detallePago: [{ ...detalle, otro: 1 }], otro: 'x' };
    expect(readListaPago({ listaPago: { pago } })).toEqual([pago]);
    expect(readListaPago({ listaPago: { pago: [extra, pago] }, otro: 1 })).toEqual([{ ...pago, detallePago: [detalle] }, pago]);
  });

  it('refuses what the schema refuses', () => {
    expect(readListaPago({ listaPago: { pago: [] } })).toBeNull();
    expect(readListaPago({ listaPago: { pago: { ...pago, medioPago: 'EFECTIVO' } } })).toBeNull();
    expect(readListaPago({ listaPago: { pago: { ...pago, detallePago: { ...detalle, montoPagado: 1.5 } } } })).toBeNull();
    expect(readListaPago({ listaPago: { pago: { ...pago, detallePago: { ...detalle, montoPagado: 2 ** 53 } } } })).toBeNull();
    expect(readListaPago({ listaPago: { pago: { ...pago, email: undefined } } })).toBeNull();
    expect(readListaPago({ listaPago: [pago] })).toBeNull();
    expect(readListaPago([{ listaPago: { pago } }])).toBeNull();
    expect(readListaPago(null)).toBeNull();
  });

  it('gives the verdict and the payments of the schema on any answer, right or broken', () => {
    fc.assert(
      fc.property(answer, path, fc.constantFrom<Change>('set', 'delete', 'extra'), oddValue, (sent, where, change, odd) => {
        const response = mutate(sent, where, change, odd);
        expect(readListaPago(response)).toEqual(bySchema(response));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with the schema on answers that went through JSON, as the browser reads them', () => {
    fc.assert(
      fc.property(answer, path, oddValue, (sent, where, odd) => {
        const response = JSON.parse(JSON.stringify(mutate(sent, where, 'set', odd))) as unknown;
        expect(readListaPago(response)).toEqual(bySchema(response));
      }),
      { numRuns: 1000 },
    );
  });
});
