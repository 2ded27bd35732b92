import {
  DECISION_PATH,
  ENROLAR_PATH,
  ENROLAR_RESPONSE,
  PENDIENTES_PATH,
  PENDIENTES_RESPONSE,
  type Decision,
  type Solicitud,
} from '@pago/domain/call-autorizador';
import type { ProductoSeleccionado } from '@pago/domain/schemas/call-seleccionar';
import type { Producto } from '@pago/domain/products';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { FastifyInstance } from 'fastify';
import { AuthoriserDevice } from './authoriser-device';

/** Does what the member's browser does: fetch a challenge and solve it. */
/** A solved captcha, its challenge asked from `remoteAddress` (a spraying client's challenges are costlier). */
export async function solveCaptcha(app: FastifyInstance, remoteAddress?: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/captcha/challenge', ...(remoteAddress ? { remoteAddress } : {}) });
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

/**
 * The listed product with this demo number. The list names products by a per-session reference that ends with the
 * number's last four digits, so that is all a test (or the member) can match on.
 */
export function productNumbered<P extends { numeroProducto: string }>(productos: P[], numero: string): P {
  const found = productos.filter((p) => p.numeroProducto.endsWith(numero.slice(-4)));
  if (found.length !== 1) throw new Error(`${found.length} listed products end with ${numero.slice(-4)}`);
  return found[0]!;
}

export function postSeleccionar(app: FastifyInstance, token: string, rut: string, producto: ProductoSeleccionado[]) {
  return app.inject({
    method: 'POST',
    url: '/prod/producto/seleccionar',
    headers: { 'content-type': 'application/json' },
    payload: { seleccionarProductoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, producto } },
  });
}

const json = { 'content-type': 'application/json' };

export async function postAutentica(app: FastifyInstance, token: string, payerRut: string, clave: string, captcha?: string) {
  const [rut, dv] = payerRut.split('-') as [string, string];
  return app.inject({
    method: 'POST',
    url: '/prod/pago/producto/cuentavista/autentica',
    headers: { ...json, authorization: captcha ?? (await solveCaptcha(app)) },
    payload: { autenticaConsultaFactoresRequest: { userId: payerRut, canalLlamada: 'PGEX', token, autenticacion: { rut, dv, clave } } },
  });
}

export function postAutorizar(app: FastifyInstance, token: string, rut: string, rutPago: string, factor: 1 | 2) {
  return app.inject({
    method: 'POST',
    url: '/prod/pago/producto/cuentavista/autorizar',
    headers: json,
    payload: { autorizarPagoProductoCVRequest: { userId: rutPago, canalLlamada: 'PGEX', token, factor, rut, rutPago } },
  });
}

export function postPagar(
  app: FastifyInstance,
  body: { token: string; rutTitular: string; rutPago: string; numeroCuenta: string; factor?: 1 | 2; valores?: string[] },
) {
  return app.inject({
    method: 'POST',
    url: '/prod/pago/producto/cuentavista/pagar',
    headers: json,
    payload: {
      pagarProductoCVRequest: {
        userId: body.rutPago,
        canalLlamada: 'PGEX',
        token: body.token,
        rutTitular: body.rutTitular,
        numeroCuenta: body.numeroCuenta,
        rutPago: body.rutPago,
        ...(body.factor ? { factor: body.factor } : {}),
        ...(body.valores ? { desafio: { item: body.valores.map((valor) => ({ valor })) } } : {}),
      },
    },
  });
}

export function postConsultarPago(app: FastifyInstance, token: string, idTransaccion: string) {
  return app.inject({
    method: 'POST',
    url: '/prod/pago/consultar',
    headers: json,
    payload: { consultarPagoRequest: { userId: 'x', canalLlamada: 'PGEX', token, idTransaccion } },
  });
}

/** The first `count` listed instalments of a product at their pending amounts, as call 3 takes them. */
export function oldest(p: Producto, count: number): ProductoSeleccionado {
  const detalles = Array.isArray(p.listaDetalleProductos) ? p.listaDetalleProductos : [p.listaDetalleProductos];
  return {
    numeroProducto: p.numeroProducto,
    tipoFamiliaProducto: p.tipoFamiliaProducto,
    nombreFamiliaProducto: p.nombreFamiliaProducto,
    detalleProducto: detalles.slice(0, count).map((d) => ({
      numeroCuota: String(d.numeroCuota),
      valorAPagar: d.montoPendiente,
      fechaVencimiento: d.fechaVencimiento,
    })),
  };
}

export const errorCode = (res: { json(): unknown }, responseName: string): string | undefined =>
  (res.json() as Record<string, { error?: { errores: { detalleError: { codigo: string } } } }>)[responseName]?.error?.errores.detalleError.codigo;

/** An authoriser device enrolled for this member as the app would: a code from the operator, the signed enrolment. */
export async function enrolDevice(app: FastifyInstance, rut: string): Promise<AuthoriserDevice> {
  const device = await AuthoriserDevice.create();
  const issued = await app.services.authoriser.issueEnrolmentCode(rut, 'operador', 'test');
  if (!issued) throw new Error(`no member ${rut}`);
  const res = await app.inject({ method: 'POST', url: ENROLAR_PATH, headers: json, payload: await device.enrolment(issued.codigo) });
  device.dispositivo = res.json()[ENROLAR_RESPONSE]?.dispositivo ?? null;
  if (!device.dispositivo) throw new Error(`enrolment failed: ${res.body}`);
  return device;
}

/** The requests waiting for this device, as it fetches them. */
export async function devicePending(app: FastifyInstance, device: AuthoriserDevice): Promise<Solicitud[]> {
  const res = await app.inject({ method: 'POST', url: PENDIENTES_PATH, headers: json, payload: await device.pendingRequest() });
  const answer = res.json()[PENDIENTES_RESPONSE];
  if (!answer?.solicitudes) throw new Error(`pending failed: ${res.body}`);
  return answer.solicitudes;
}

/** The device's signed decision on a request; the answer as the app receives it. */
export async function deviceDecides(app: FastifyInstance, device: AuthoriserDevice, solicitud: Solicitud, decision: Decision) {
  return app.inject({ method: 'POST', url: DECISION_PATH, headers: json, payload: await device.decision(solicitud, decision) });
}
