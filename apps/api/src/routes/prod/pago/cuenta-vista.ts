import {
  AUTENTICA_PATH,
  AUTENTICA_RESPONSE,
  AUTORIZAR_PATH,
  AUTORIZAR_RESPONSE,
  PAGAR_PATH,
  PAGAR_RESPONSE,
} from '@pago/domain/call-cuenta-vista';
import {
  autenticaOkSchema,
  autenticaRequestSchema,
  autorizarOkSchema,
  autorizarRequestSchema,
  pagarOkSchema,
  pagarRequestSchema,
} from '@pago/domain/schemas/call-cuenta-vista';
import { oneOrMany } from '@pago/domain/as-array';
import { CODIGO_OK } from '@pago/domain/call-seleccionar';
import { errorEnvelope } from '@pago/domain/envelope';
import {
  isKnownCode,
  LAST_PASSWORD_ATTEMPT_MESSAGE,
  mobileAuthoriserMessage,
  type RefusalCode,
} from '@pago/domain/errors';
import { joinRut, maskRut } from '@pago/domain/rut';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cookieOf, newSecret, sha256 } from '../../../operator/access';
import { allLimits } from '../../../plugins/external/rate-limit';
import { TRUSTED_DEVICE_DAYS } from '../../../services/password-check';
import { appendAudit } from '../../../repositories/audit-repository';
import { envelopeResponses } from '../../responses';

/**
 * The authoriser's own codes (7, 8, 25, 50) are not catalogue codes; their texts come from the domain's
 * authoriser messages ('Pass{product}' named after the configured product).
 */
function envelopeFor<N extends string>(responseName: N, codigo: RefusalCode, productSlug: string) {
  if (isKnownCode(codigo)) return errorEnvelope(responseName, codigo);
  const product = productSlug.charAt(0).toUpperCase() + productSlug.slice(1);
  return errorEnvelope(responseName, codigo, mobileAuthoriserMessage(codigo, product) ?? 'Autorización pendiente.');
}

/** The cookie naming the member's browser, sent back only to call 4. */
const DEVICE_COOKIE = 'pago_dispositivo';
const DEVICE_COOKIE_PATH = AUTENTICA_PATH;
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;

/** Calls 4, 5 and 6 (spec §7): login, second factor, payment from the own checking account. */
export async function cuentaVistaRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { loginPerIp, loginPerPayer, payPerIp } = app.config.rateLimits;
  const perIp = (name: string, max: number) =>
    allLimits(app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (request) => `${name}:${request.client}` }));

  r.post(
    AUTENTICA_PATH,
    {
      schema: { body: autenticaRequestSchema, response: envelopeResponses(AUTENTICA_RESPONSE, autenticaOkSchema) },
      config: { responseName: AUTENTICA_RESPONSE },
      preHandler: allLimits(
        app.createRateLimit({ max: loginPerIp, timeWindow: 60_000, keyGenerator: (request) => `autentica:${request.client}` }),
        // Per payer and client: guesses at one member's password are slowed down well before they block it.
        app.createRateLimit({
          max: loginPerPayer,
          timeWindow: 15 * 60_000,
          keyGenerator: (request) => {
            const login = (request.body as { autenticaConsultaFactoresRequest?: { autenticacion?: { rut?: unknown; dv?: unknown } } } | undefined)?.autenticaConsultaFactoresRequest?.autenticacion;
            return `autentica-payer:${request.client}:${String(login?.rut ?? '')}-${String(login?.dv ?? '').toUpperCase()}`;
          },
        }),
      ),
    },
    async (request, reply) => {
      const body = request.body.autenticaConsultaFactoresRequest;
      const captcha = await app.services.captcha.verifyAndSpend(request.headers.authorization);
      if (!captcha.ok) {
        const payer = joinRut(body.autenticacion.rut, body.autenticacion.dv.toUpperCase());
        await appendAudit(app.database.db, {
          kind: 'captcha.rechazado',
          rutMasked: payer ? maskRut(payer) : null,
          requestId: request.id,
          detail: { motivo: captcha.reason, llamada: 'autentica' },
        });
        return errorEnvelope(AUTENTICA_RESPONSE, '482');
      }
      // A client that failed for many payers this hour and brought an ordinary captcha is answered as a refused
      // captcha (482): the browser asks a new challenge, which is a costly one for it.
      // The browser's own id (decision 041): kept by a cookie, only its hash stored, given at its first login.
      const known = cookieOf(request, DEVICE_COOKIE);
      const device = known && DEVICE_ID.test(known) ? known : newSecret();
      const result = await app.services.ownAccount.authenticate(body, request.id, { client: request.client, work: captcha.work, deviceHash: sha256(device) });
      if (result.ok && device !== known) reply.header('set-cookie', `${DEVICE_COOKIE}=${device}; Path=${DEVICE_COOKIE_PATH}; Max-Age=${TRUSTED_DEVICE_DAYS * 86_400}; HttpOnly; Secure; SameSite=Strict`);
      if (!result.ok) return errorEnvelope(AUTENTICA_RESPONSE, result.codigo, 'lastAttempt' in result ? LAST_PASSWORD_ATTEMPT_MESSAGE : undefined);
      return {
        [AUTENTICA_RESPONSE]: {
          codigo: CODIGO_OK,
          numeroCuenta: result.numeroCuenta,
          factores: result.factores.map((factor) => ({ factor })),
        },
      };
    },
  );

  r.post(
    AUTORIZAR_PATH,
    { schema: { body: autorizarRequestSchema, response: envelopeResponses(AUTORIZAR_RESPONSE, autorizarOkSchema) }, config: { responseName: AUTORIZAR_RESPONSE }, preHandler: perIp('autorizar', loginPerIp) },
    async (request) => {
      const result = await app.services.ownAccount.authorize(request.body.autorizarPagoProductoCVRequest, request.id);
      if (!result.ok) return envelopeFor(AUTORIZAR_RESPONSE, result.codigo, app.config.productSlug);
      return {
        [AUTORIZAR_RESPONSE]: {
          codigo: CODIGO_OK,
          numeroCuenta: result.numeroCuenta,
          ...(result.desafio ? { desafio: { item: result.desafio.map((valor) => ({ valor })) } } : {}),
          vigencia: result.vigencia,
        },
      };
    },
  );

  r.post(
    PAGAR_PATH,
    { schema: { body: pagarRequestSchema, response: envelopeResponses(PAGAR_RESPONSE, pagarOkSchema) }, config: { responseName: PAGAR_RESPONSE }, preHandler: perIp('pagar', payPerIp) },
    async (request) => {
      const result = await app.services.ownAccount.pay(request.body.pagarProductoCVRequest, request.id);
      // 25 is the authoriser still waiting: the browser's polling, not an outcome.
      if (result.ok || result.codigo !== '25') {
        const outcome = result.ok ? 'paid' : result.codigo === '47203' ? 'insufficient_funds' : 'refused';
        app.metrics.payments.inc({ method: 'cuenta_vista', outcome });
      }
      if (!result.ok) return envelopeFor(PAGAR_RESPONSE, result.codigo, app.config.productSlug);
      // Spec §7.6: one product is an object, several a list.
      return { [PAGAR_RESPONSE]: { productoPagadoCV: oneOrMany(result.pagados) } };
    },
  );
}
