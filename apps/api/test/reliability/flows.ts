import type { ProductoSeleccionado } from '@pago/domain/schemas/call-seleccionar';
import type { Family } from '@pago/domain/families';
import { detallesOf, type Producto } from '@pago/domain/products';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { JSON_HEADERS, jsonOf, type HttpResponse, type Target } from './http';

// The member's browser, call by call, over any target (an app in this process or a server over the network).

type Envelope = Record<string, { error?: { errores: { detalleError: { codigo: string; descripcion: string } } } } & Record<string, unknown>>;

export const codeOf = (res: HttpResponse, responseName: string): string | undefined => {
  try {
    return jsonOf<Envelope>(res)[responseName]?.error?.errores.detalleError.codigo;
  } catch {
    return undefined;
  }
};

/** A refusal or failure along a flow: the call, and the code or HTTP status it ended with. */
export class FlowStop extends Error {
  constructor(
    readonly step: string,
    readonly code: string,
  ) {
    super(`${step}: ${code}`);
  }
}

function ok<T>(res: HttpResponse, step: string, responseName: string): T {
  if (res.status !== 200) throw new FlowStop(step, `http${res.status}`);
  const code = codeOf(res, responseName);
  if (code) throw new FlowStop(step, code);
  return jsonOf<Record<string, T>>(res)[responseName]!;
}

export async function solveCaptcha(target: Target): Promise<string> {
  const res = await target.request({ method: 'GET', url: '/api/captcha/challenge' });
  if (res.status !== 200) throw new FlowStop('captcha', `http${res.status}`);
  const challenge = jsonOf<Challenge>(res);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new FlowStop('captcha', 'unsolved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

export const post = (target: Target, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  target.request({ method: 'POST', url, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(payload) });

export async function listar(target: Target, rut: string): Promise<{ token: string; productos: Producto[] }> {
  const captcha = await solveCaptcha(target);
  const res = await post(target, '/prod/producto/listar', { listarDetalleProductosRequest: { userId: rut, canalLlamada: 'PGEX', rut } }, { authorization: captcha });
  const body = ok<{ token: string; listaProductos: Producto[] }>(res, 'listar', 'listarDetalleProductosResponse');
  return { token: body.token, productos: body.listaProductos };
}

export async function seleccionar(target: Target, token: string, rut: string, producto: ProductoSeleccionado[]) {
  const res = await post(target, '/prod/producto/seleccionar', { seleccionarProductoRequest: { userId: rut, canalLlamada: 'PGEX', token, rut, producto } });
  return ok<{ idTransaccion: string; montoTotal: number }>(res, 'seleccionar', 'seleccionarProductoResponse');
}

/** The oldest `count` pending instalments of a listed product at their pending amounts (or a deposit for AH). */
export function oldestOf(p: Producto, count: number, deposit = 10_000): ProductoSeleccionado {
  if (p.tipoFamiliaProducto === 'AH') {
    return { numeroProducto: p.numeroProducto, tipoFamiliaProducto: 'AH', nombreFamiliaProducto: p.nombreFamiliaProducto, detalleProducto: [{ numeroCuota: '0', valorAPagar: deposit, fechaVencimiento: '0' }] };
  }
  const detalles = detallesOf(p).filter((d) => d.montoPendiente > 0);
  return {
    numeroProducto: p.numeroProducto,
    tipoFamiliaProducto: p.tipoFamiliaProducto,
    nombreFamiliaProducto: p.nombreFamiliaProducto,
    detalleProducto: detalles.slice(0, count).map((d) => ({ numeroCuota: String(d.numeroCuota), valorAPagar: d.montoPendiente, fechaVencimiento: d.fechaVencimiento })),
  };
}

export interface OwnAccountPayment {
  token: string;
  memberRut: string;
  payerRut: string;
  clave: string;
  /** Copies of call 6 sent at the same time as the first. */
  repeats?: number;
}

/** Calls 4, 5 (factor 1) and 6 with the right coordinates of the payer's demo card; answers what call 6 paid. */
export async function payOwnAccount(target: Target, p: OwnAccountPayment): Promise<{ idTransaccion: string; montoPagado: number }[]> {
  const [numero, dv] = p.payerRut.split('-') as [string, string];
  const captcha = await solveCaptcha(target);
  const login = ok<{ numeroCuenta: string }>(
    await post(
      target,
      '/prod/pago/producto/cuentavista/autentica',
      { autenticaConsultaFactoresRequest: { userId: p.payerRut, canalLlamada: 'PGEX', token: p.token, autenticacion: { rut: numero, dv, clave: p.clave } } },
      { authorization: captcha },
    ),
    'autentica',
    'autenticaConsultaFactoresResponse',
  );
  const challenge = ok<{ desafio: { item: { valor: string }[] } }>(
    await post(target, '/prod/pago/producto/cuentavista/autorizar', {
      autorizarPagoProductoCVRequest: { userId: p.payerRut, canalLlamada: 'PGEX', token: p.token, factor: 1, rut: p.memberRut, rutPago: p.payerRut },
    }),
    'autorizar',
    'autorizarPagoProductoCVResponse',
  );
  const card = demoCoordinateCard(p.payerRut);
  const valores = challenge.desafio.item.map((i) => ({ valor: card[i.valor]! }));
  const pagar = () =>
    post(target, '/prod/pago/producto/cuentavista/pagar', {
      pagarProductoCVRequest: {
        userId: p.payerRut,
        canalLlamada: 'PGEX',
        token: p.token,
        rutTitular: p.memberRut,
        numeroCuenta: login.numeroCuenta,
        rutPago: p.payerRut,
        factor: 1,
        desafio: { item: valores },
      },
    });
  // The call and its repeats at once: every copy must give the same answer (the voucher once paid).
  const answers = await Promise.all(Array.from({ length: 1 + (p.repeats ?? 0) }, pagar));
  // A copy that met the database unreachable (HTTP 503), or the core without an answer in time (code 503: it is
  // asked again under the same key), answers so while another may already have paid: that is the fault's answer
  // (allowed only where a fault was injected), not two different truths about one payment.
  const unavailable = answers.find((a) => a.status === 503 || codeOf(a, 'pagarProductoCVResponse') === '503');
  if (unavailable) ok(unavailable, 'pagar', 'pagarProductoCVResponse');
  if (new Set(answers.map((a) => `${a.status} ${a.body}`)).size > 1) throw new FlowStop('pagar', 'inconsistent');
  const paid = ok<{ productoPagadoCV: { idTransaccion: string; montoPagado: number } | { idTransaccion: string; montoPagado: number }[] }>(
    answers[0]!,
    'pagar',
    'pagarProductoCVResponse',
  );
  return Array.isArray(paid.productoPagadoCV) ? paid.productoPagadoCV : [paid.productoPagadoCV];
}

export const INTEGRATION_STORE_DEBIT_CREDIT = '597055555536';
export const INTEGRATION_STORE_DEBIT = '597055555537';

/** The commerce code the seed's parameters choose per family (pagoDebitoCredito{family}). */
export function commerceCodeOf(family: Family): string {
  return family === 'AH' || family === 'TC' ? INTEGRATION_STORE_DEBIT : INTEGRATION_STORE_DEBIT_CREDIT;
}

export const VISA_APPROVED = '4051885600446623';
export const MASTERCARD_REJECTED = '5186059559590568';

export interface CardStart {
  hostToken: string;
  webpayToken: string;
  formUrl: string;
}

/** Calls 9 and 10 as the browser does: one store per product with the amounts of the selection. */
export async function startCard(
  target: Target,
  session: { token: string; rut: string },
  selection: { idTransaccion: string; producto: ProductoSeleccionado[] },
): Promise<CardStart> {
  const auth = await target.request({
    method: 'POST',
    url: '/api/pagoexpress/auth',
    headers: { ...JSON_HEADERS, authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ idTransaction: selection.idTransaccion }),
  });
  if (auth.status !== 200) throw new FlowStop('auth', `http${auth.status}`);
  const authBody = jsonOf<{ code: number; token?: string }>(auth);
  if (authBody.code !== 0 || !authBody.token) throw new FlowStop('auth', String(authBody.code));
  const storesTransaction = selection.producto.map((p) => ({
    amount: p.detalleProducto.reduce((sum, d) => sum + d.valorAPagar, 0),
    commerceCode: commerceCodeOf(p.tipoFamiliaProducto),
    transactionId: p.numeroProducto,
  }));
  const init = await target.request({
    method: 'POST',
    url: '/api/pagoexpress/initMall',
    headers: { ...JSON_HEADERS, authorization: `Bearer ${authBody.token}` },
    body: JSON.stringify({ sessionId: `${session.token}${session.rut}`, transactionId: selection.idTransaccion, storesTransaction }),
  });
  if (init.status !== 200) throw new FlowStop('initMall', `http${init.status}`);
  const initBody = jsonOf<{ token?: string; url?: string; code?: number }>(init);
  if (!initBody.token || !initBody.url) throw new FlowStop('initMall', String(initBody.code));
  return { hostToken: authBody.token, webpayToken: initBody.token, formUrl: initBody.url };
}

/** The hidden fields of the simulator's auto-posted return form. */
export const returnFields = (html: string) => Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));

/** The cardholder on Webpay's form: pays with a card, or presses 'Anular'. Answers the fields the browser posts back. */
export async function useCardForm(simUrl: string, webpayToken: string, action: { card: string } | 'abort'): Promise<Record<string, string>> {
  const path = action === 'abort' ? '/webpayserver/abort' : '/webpayserver/pay';
  const fields: Record<string, string> = action === 'abort' ? { token: webpayToken } : { token: webpayToken, card: action.card, expiry: '12/29', cvv: '123' };
  const res = await fetch(`${simUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.timeout(20_000),
  });
  return returnFields(await res.text());
}

/** The browser's return to the payment host; answers the estado of the redirect. */
export async function postReturn(target: Target, fields: Record<string, string>): Promise<string> {
  const res = await target.request({
    method: 'POST',
    url: '/api/pagoexpress/webpay/return',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  if (res.status !== 303) throw new FlowStop('return', `http${res.status}`);
  return new URL(res.headers.location ?? '', 'http://x').searchParams.get('estado') ?? 'none';
}

export async function consultarPago(target: Target, token: string, idTransaccion: string) {
  return post(target, '/prod/pago/consultar', { consultarPagoRequest: { userId: 'x', canalLlamada: 'PGEX', token, idTransaccion } });
}
