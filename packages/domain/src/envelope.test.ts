import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { detalleErrorSchema, errorFieldSchema, errorResponseSchema } from './schemas/answers';
import { errorEnvelope, readError } from './envelope';
import { ERROR_CODES, errorDetail } from './errors';

describe('errorEnvelope', () => {
  it('nests the error under the response name, with the catalogue description', () => {
    expect(errorEnvelope('consultarParametrosResponse', '999')).toEqual({
      consultarParametrosResponse: {
        error: {
          errores: { detalleError: { codigo: '999', descripcion: 'El servicio a excedido su tiempo de espera.' } },
        },
      },
    });
  });

  it('takes a description of its own', () => {
    const body = errorEnvelope('listarDetalleProductosResponse', '47501', 'Aviso');
    expect(body.listarDetalleProductosResponse.error.errores.detalleError).toEqual({
      codigo: '47501',
      descripcion: 'Aviso',
    });
  });

  it('refuses an unknown code without a description, at compile time and at run time', () => {
    // @ts-expect-error: a code that is not in the catalogue does not compile.
    expect(() => errorEnvelope('x', '12345')).toThrow();
    // @ts-expect-error: the authoriser's own codes need their own description.
    expect(() => errorEnvelope('x', '7')).toThrow();
    expect(errorEnvelope('x', '7', 'Bloqueada').x.error.errores.detalleError).toEqual({ codigo: '7', descripcion: 'Bloqueada' });
  });

  it('matches the schemas', () => {
    const body = errorEnvelope('seleccionarProductoResponse', '477');
    expect(errorResponseSchema.parse(body.seleccionarProductoResponse)).toEqual(body.seleccionarProductoResponse);
    expect(errorFieldSchema.safeParse(body.seleccionarProductoResponse.error).success).toBe(true);
    expect(detalleErrorSchema.safeParse({ codigo: '', descripcion: 'x' }).success).toBe(false);
  });
});

describe('readError', () => {
  it('reads back every envelope', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...ERROR_CODES), (name, code) => {
        expect(readError(errorEnvelope(name, code), name)).toEqual(errorDetail(code));
      }),
    );
  });

  it('is null when the response carries no error', () => {
    expect(readError({ consultarParametrosResponse: { listaParametros: { parametro: [] } } }, 'consultarParametrosResponse')).toBeNull();
    expect(readError({ consultarParametrosResponse: { error: null } }, 'consultarParametrosResponse')).toBeNull();
    expect(readError(null, 'x')).toBeNull();
    expect(readError('<html>', 'x')).toBeNull();
    expect(readError([], 'x')).toBeNull();
  });

  it('only looks under the given response name', () => {
    expect(readError(errorEnvelope('a', '999'), 'b')).toBeNull();
  });

  it('never mistakes an unreadable error for no error', () => {
    expect(readError({ r: { error: {} } }, 'r')).toEqual({ codigo: '', descripcion: '' });
    expect(readError({ r: { error: 'boom' } }, 'r')).toEqual({ codigo: '', descripcion: '' });
    expect(readError({ r: { error: { errores: { detalleError: { codigo: {} } } } } }, 'r')).toEqual({
      codigo: '',
      descripcion: '',
    });
  });

  it('tolerates a numeric code and a list of details', () => {
    expect(readError({ r: { error: { errores: { detalleError: { codigo: 999, descripcion: 'x' } } } } }, 'r')).toEqual({
      codigo: '999',
      descripcion: 'x',
    });
    expect(
      readError({ r: { error: { errores: { detalleError: [{ codigo: '476', descripcion: 'y' }, { codigo: '1' }] } } } }, 'r'),
    ).toEqual({ codigo: '476', descripcion: 'y' });
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (body, name) => {
        readError(body, name);
        readError({ [name]: body }, name);
        readError({ [name]: { error: body } }, name);
      }),
    );
  });
});
