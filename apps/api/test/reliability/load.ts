import type { Family } from '@pago/domain/families';
import type { LoadMember } from './fixtures';
import { LOAD_PASSWORD } from './fixtures';
import { FlowStop, listar, MASTERCARD_REJECTED, oldestOf, payOwnAccount, postReturn, seleccionar, startCard, useCardForm, VISA_APPROVED } from './flows';
import type { HttpRequest, HttpResponse, Target } from './http';

// Many members' browsers at once: each payer lists, selects the oldest instalments of one product (several payers
// share a member, so they race for the same instalments and accounts), and pays by one path.

export type PayMethod = 'own' | 'card' | 'card-rejected' | 'card-abort' | 'card-abandon';

export interface PayerPlan {
  memberRut: string;
  /** Who pays from their own account: the member, or another member (a third party sharing that account). */
  payerRut: string;
  family: Family;
  count: number;
  method: PayMethod;
  /** Extra copies of the last call sent at once (a double click, a retried request, a repeated Webpay return). */
  repeats: number;
}

export interface PayerResult {
  plan: PayerPlan;
  /** 'paid', 'aprobado', 'rechazado', 'anulado', 'pendiente', 'abandoned', or 'step:code' where it stopped. */
  outcome: string;
  idTransaccion?: string;
  /** An abandoned card payment: what its browser would have posted back. */
  returnFields?: Record<string, string>;
  ms: number;
}

const FAMILIES: Family[] = ['PC', 'PM', 'CP', 'AH'];
const METHODS: PayMethod[] = ['own', 'own', 'own', 'card', 'card', 'card-rejected', 'card-abort', 'card-abandon'];

/** A deterministic mix: payers spread over the members, several per member and family, all methods, some repeats. */
export function planPayers(members: LoadMember[], count: number, seed = 1): PayerPlan[] {
  // mulberry32: small, seedable, well spread.
  let s = seed >>> 0;
  const next = (max: number) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * max);
  };
  return Array.from({ length: count }, (_, i) => {
    const member = members[i % members.length]!;
    const method = METHODS[next(METHODS.length)]!;
    const family = FAMILIES[next(FAMILIES.length)]!;
    // A third of the own-account payments come from another member's account: accounts are shared too.
    const third = method === 'own' && next(3) === 0 ? members[(i + 1 + next(members.length - 1)) % members.length]! : member;
    return { memberRut: member.rut, payerRut: third.rut, family, count: 1 + next(2), method, repeats: next(4) === 0 ? 2 : 0 };
  });
}

/** Tries the next target when one gives no answer at all (a killed process): what a load balancer does. */
export function failover(targets: Target[]): Target {
  let next = 0;
  return {
    name: 'failover',
    forClient: (address) => failover(targets.map((t) => (t.forClient ? t.forClient(address) : t))),
    async request(request: HttpRequest): Promise<HttpResponse> {
      let lastError: unknown;
      for (let attempt = 0; attempt < targets.length * 2; attempt++) {
        const target = targets[next++ % targets.length]!;
        try {
          return await target.request(request);
        } catch (error) {
          lastError = error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      throw lastError;
    },
  };
}

export async function runPayer(target: Target, simUrl: string, plan: PayerPlan): Promise<PayerResult> {
  const started = Date.now();
  const done = (outcome: string, idTransaccion?: string): PayerResult => ({ plan, outcome, ...(idTransaccion ? { idTransaccion } : {}), ms: Date.now() - started });
  let idTransaccion: string | undefined;
  try {
    const { token, productos } = await listar(target, plan.memberRut);
    const product = productos.find((p) => p.tipoFamiliaProducto === plan.family);
    if (!product) return done('nothing-to-pay');
    const producto = [oldestOf(product, plan.count, 1_000 + 1_000 * plan.count)];
    if (producto[0]!.detalleProducto.length === 0) return done('nothing-to-pay');
    const selection = await seleccionar(target, token, plan.memberRut, producto);
    idTransaccion = selection.idTransaccion;

    if (plan.method === 'own') {
      const paid = await payOwnAccount(target, { token, memberRut: plan.memberRut, payerRut: plan.payerRut, clave: LOAD_PASSWORD, repeats: plan.repeats });
      return done(paid.length > 0 ? 'paid' : 'none', idTransaccion);
    }
    const card = await startCard(target, { token, rut: plan.memberRut }, { idTransaccion, producto });
    const fields = await useCardForm(simUrl, card.webpayToken, plan.method === 'card-abort' ? 'abort' : { card: plan.method === 'card-rejected' ? MASTERCARD_REJECTED : VISA_APPROVED });
    if (plan.method === 'card-abandon') return { ...done('abandoned', idTransaccion), returnFields: fields };
    const estados = await Promise.all(Array.from({ length: 1 + plan.repeats }, () => postReturn(target, fields)));
    // A repeated return answers what the first one did, or what it has become since: 'pendiente' while the first
    // still holds the lock, 'reembolsado' once the refund the first told as under way ('reembolso') is done.
    const settled = estados.filter((e) => e !== 'pendiente');
    if (new Set(settled.map((e) => (e === 'reembolso' ? 'reembolsado' : e))).size > 1) return done(`return:inconsistent ${estados.join(',')}`, idTransaccion);
    return done(settled[0] ?? 'pendiente', idTransaccion);
  } catch (error) {
    if (error instanceof FlowStop) return done(`${error.step}:${error.code}`, idTransaccion);
    return done(`network:${error instanceof Error ? (error.name === 'TimeoutError' ? 'timeout' : error.message.slice(0, 60)) : 'error'}`, idTransaccion);
  }
}

/** Runs every payer at once; answers their results. */
export function runPayers(target: Target, simUrl: string, plans: PayerPlan[]): Promise<PayerResult[]> {
  return Promise.all(plans.map((plan) => runPayer(target, simUrl, plan)));
}

export function histogram(results: PayerResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of results) counts[`${r.plan.method}→${r.outcome}`] = (counts[`${r.plan.method}→${r.outcome}`] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]));
}

/**
 * Outcomes a correct service may give under races: paid or refused because someone else paid first (442, or a
 * selection that no longer matches: 461/463), an instalment in another payment under way (443, at any call), too poor (47203), a
 * third party's deposit (451), the card's own answers, a charge given back because another payment won (reembolsado,
 * or reembolso while Webpay is at it). Anything else (a 5xx, no answer, an unknown code) is a failure of the service.
 */
export const EXPECTED_OUTCOMES = new Set([
  'paid',
  'aprobado',
  'rechazado',
  'anulado',
  'expirado',
  'abandoned',
  'nothing-to-pay',
  'pagar:442',
  'pagar:47203',
  'autentica:451',
  'autentica:442',
  'autorizar:442',
  'reembolsado',
  'reembolso',
  'seleccionar:443',
  'seleccionar:461',
  'seleccionar:463',
  'seleccionar:477',
  'auth:442',
  'initMall:442',
  // Every later call of a payment refuses what another payment under way holds (443), not only the selection.
  'autentica:443',
  'autorizar:443',
  'pagar:443',
  'auth:443',
  'initMall:443',
]);

export const isExpected = (r: PayerResult) => EXPECTED_OUTCOMES.has(r.outcome);

/** Answers that are correct only because a fault was injected on purpose. */
const UNDER_FAULT = /^(\w+:http503|\w+:503|autentica:482|listar:482|pendiente)$/;

/** The payers whose outcome no member should see ('method→outcome'); with `allowFault`, a fault's answers are fine. */
export const unexpectedOutcomes = (results: PayerResult[], allowFault: boolean) =>
  results.filter((r) => !isExpected(r) && !(allowFault && UNDER_FAULT.test(r.outcome))).map((r) => `${r.plan.method}→${r.outcome}`);
