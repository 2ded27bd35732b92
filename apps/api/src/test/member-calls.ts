import type { ProductoSeleccionado } from '@pago/domain/call-seleccionar';
import type { Producto } from '@pago/domain/products';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { FastifyInstance } from 'fastify';

/** Does what the member's browser does: fetch a challenge and solve it. */
export async function solveCaptcha(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/captcha/challenge' });
  const challenge = res.json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the captcha');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

export function postListar(app: FastifyInstance, rut: string, authorization?: string) {
  return app.inject({
    method: 'POST',
    url: '/prod/producto/listar',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    payload: { listarDetalleProductosRequest: { userId: rut, canalLlamada: 'PGEX', rut } },
  });
}

/** Lists a member's products the way the browser does, returning the session token and the products. */
export async function listProducts(app: FastifyInstance, rut: string): Promise<{ token: string; productos: Producto[] }> {
  const res = await postListar(app, rut, await solveCaptcha(app));
  const body = res.json().listarDetalleProductosResponse;
  if (!body?.token) throw new Error(`listar failed for ${rut}: ${res.body}`);
  return { token: body.token, productos: body.listaProductos };
}

export function postSeleccionar(app: FastifyInstance, token: string, rut: string, producto: ProductoSeleccionado[]) {
  return app.inject({
    method: 'POST',
    url: '/prod/producto/seleccionar',
    headers: { 'content-type': 'application/json' },
    payload: { seleccionarProductoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, producto } },
  });
}
