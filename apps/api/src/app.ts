import { errorEnvelope } from '@pago/domain/envelope';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { Config } from './config';
import type { Database } from './db/client';
import { DEFAULT_RESPONSE_NAME, registerErrorHandling } from './plugins/app/error-handler';
import { securityHeaders } from './plugins/external/security-headers';
import { registerWebApp } from './plugins/external/web-app';
import { adminRoutes } from './routes/admin/parametros';
import { healthRoutes } from './routes/health';
import { consultarParametrosRoute } from './routes/prod/parametro/consultar';
import { registerClient } from './client';
import { rateLimitGauge, registerRateLimit } from './plugins/external/rate-limit';
import { pruneClientGuards, pruneTrustedDevices } from './repositories/member-repository';
import { listParameters } from './repositories/parameters-repository';
import { expireWithoutSession } from './repositories/transaction-repository';
import { toParameterMap } from '@pago/domain/parameters';
import { TRUSTED_DEVICE_DAYS } from './services/password-check';
import { captchaRoutes } from './routes/api/captcha';
import { disponibilidadRoute } from './routes/api/disponibilidad';
import { listarProductosRoute } from './routes/prod/producto/listar';
import { seleccionarProductoRoute } from './routes/prod/producto/seleccionar';
import { createCaptchaService, PRUNE_INTERVAL_MS } from './services/captcha-service';
import { createParametersService } from './services/parameters-service';
import { createProductService } from './services/product-service';
import { createSelectionService } from './services/selection-service';
import { createOwnAccountService } from './services/own-account-service';
import { createVoucherService } from './services/voucher-service';
import { createAuthoriserService } from './services/authoriser-service';
import { createWebhookDelivery, type WebhookDelivery } from './services/authoriser-webhook';
import { autorizadorRoutes } from './routes/api/autorizador';
import { cuentaVistaRoutes } from './routes/prod/pago/cuenta-vista';
import { consultarPagoRoute } from './routes/prod/pago/consultar';
import { sandboxRoutes } from './routes/sandbox/sandbox-pages';
import { pagoExpressRoutes } from './routes/api/pagoexpress';
import { notificacionesRoutes, verificarComprobanteRoute } from './routes/prod/notificaciones';
import { auditoriaRoutes } from './routes/prod/auditoria';
import { registerOpenApi, serveOpenApi } from './plugins/external/openapi';
import { registerMetrics, serveMetrics, type Metrics } from './plugins/app/metrics';
import { createMailer, type Mailer } from './services/mail-service';
import { createMailDelivery, type MailDelivery } from './services/mail-delivery';
import { loggableError } from './loggable-error';
import { createNotificationService } from './services/notification-service';
import { createCardPaymentService } from './services/card-payment-service';
import { createWebpayClient, type WebpayClient } from './services/webpay-client';
import { clockFromConfig, type Clock } from './clock';
import { createScheduler, type Job, type Scheduler } from './scheduler';
import { businessToday } from '@pago/domain/business-time';
import { addDaysWire } from '@pago/domain/dates';
import { pruneBrowserReports } from './repositories/audit-repository';
import type { CoreBanking } from './services/core-banking';
import { createCorePostings, type CorePostings } from './services/core-postings';
import { createFineractClient } from './services/fineract-client';
import { createPaymentTypeCheck } from './services/core-payment-types';
import { createCoreReconciliationService } from './services/core-reconciliation-service';
import type { CustomFetch } from 'openid-client';
import { createFourEyes, type FourEyes } from './operator/four-eyes';
import { createDayCloseService, type DayCloseService } from './services/day-close-service';
import { createPaymentReversals, type PaymentReversals } from './services/payment-reversal';
import { createRelyingParty } from './operator/relying-party';
import { createSandboxProvider, sandboxProviderRoutes } from './operator/sandbox-provider';
import { signInRoutes } from './operator/sign-in-routes';
import { registerConsoleApp } from './plugins/external/console-app';

/** Within call 6, the core is asked again after these pauses while it gives no answer. */
const CORE_RETRY_PAUSES_MS = [250, 1_000] as const;

export interface AppServices {
  parameters: ReturnType<typeof createParametersService>;
  captcha: ReturnType<typeof createCaptchaService>;
  products: ReturnType<typeof createProductService>;
  selection: ReturnType<typeof createSelectionService>;
  ownAccount: ReturnType<typeof createOwnAccountService>;
  vouchers: ReturnType<typeof createVoucherService>;
  authoriser: ReturnType<typeof createAuthoriserService>;
  authoriserWebhook: WebhookDelivery;
  card: ReturnType<typeof createCardPaymentService>;
  corePostings: CorePostings;
  coreReconciliation: ReturnType<typeof createCoreReconciliationService>;
  dayClose: DayCloseService;
  fourEyes: FourEyes;
  reversals: PaymentReversals;
  notifications: ReturnType<typeof createNotificationService>;
  mailer: Mailer;
  mailDelivery: MailDelivery;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
    metrics: Metrics;
    database: Database;
    config: Config;
    /** Where the admin API, /metrics and /docs are served: this instance, or the operator's own listener. */
    operator: FastifyInstance;
    /** The background jobs; server.ts starts them, tests run one with runNow. */
    scheduler: Scheduler;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Business time; defaults to the system clock, or SANDBOX_CLOCK in the sandbox. */
  clock?: Clock;
  /** Webpay; defaults to transbank-sdk against WEBPAY_BASE_URL. */
  webpay?: WebpayClient;
  /** The core banking system; defaults to the Fineract adapter against CORE_BASE_URL. */
  core?: CoreBanking;
}

// Anything a member, a card or a secret could leak through: never written to a log line.
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.rut',
  '*.clave',
  '*.token',
  '*.correo',
  '*.email',
  '*.desafio',
];

/** Builds the whole API as one instance without listening, so tests drive it through inject. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const headerOptions = { production: config.nodeEnv === 'production', formTargets: [new URL(config.webpay.baseUrl).origin] };
  const headers = securityHeaders(headerOptions);
  const app = newInstance(config, headers, options.logger);

  app.decorate('config', config);
  app.decorate('database', database);
  const clock = options.clock ?? clockFromConfig(config);
  const mailer = createMailer(database.db, { smtpUrl: config.smtpUrl, from: config.mailFrom });
  const core = options.core ?? createFineractClient(config.core);
  // Call 6 asks the core itself first; the background job leaves it this long before asking too.
  const coreLeaseSeconds = Math.ceil((config.core.timeoutMs * (1 + CORE_RETRY_PAUSES_MS.length) + CORE_RETRY_PAUSES_MS.reduce((a, b) => a + b, 0)) / 1000) + 5;
  const corePostings = createCorePostings(database.db, clock, core, { leaseSeconds: coreLeaseSeconds, retryPausesMs: CORE_RETRY_PAUSES_MS }, app.log);
  const parameters = createParametersService(database.db, { cacheMs: config.parametersCacheMs });
  const card = createCardPaymentService(
    database.db,
    clock,
    options.webpay ?? createWebpayClient(config.webpay),
    { publicBaseUrl: config.publicBaseUrl, settleAfterSeconds: config.webpay.settleAfterSeconds },
    app.log,
  );
  const authoriser = createAuthoriserService(database.db, { enrolmentCodeDays: config.authoriser.enrolmentCodeDays });
  const captcha = createCaptchaService(database.db, { secret: config.altchaSecret, counter: config.altchaCounter });
  const dayClose = createDayCloseService(database.db, core, clock);
  const reversals = createPaymentReversals(database.db, { postings: corePostings, refundDue: card.refundDue, cooperative: config.productName });
  app.decorate('services', {
    parameters,
    dayClose,
    reversals,
    fourEyes: createFourEyes(database.db, parameters, card, { issueCodeWithin: authoriser.issueCodeWithin, cooperative: config.productName }, { hours: config.operatorConsole.fourEyesHours }, { closes: dayClose, reversals }),
    captcha,
    products: createProductService(database.db, clock),
    selection: createSelectionService(database.db, clock, { webpayOpenSeconds: config.webpay.settleAfterSeconds }),
    ownAccount: createOwnAccountService(database.db, clock, corePostings, {
      passwordLockMinutes: config.passwordLockMinutes,
      coreLeaseSeconds,
      notifyDevices: config.authoriser.webhook !== null,
      passwordBlockFailures: config.passwordBlockFailures,
      failedPayersPerClient: config.rateLimits.loginFailedPayers,
      costlyCaptchaWork: captcha.costlyWork,
      cooperative: config.productName,
      // The recipient stays out of the log: an SMTP refusal names it (loggableError scrubs it).
      sendMail: (mail) => mailer.send(mail).catch((error: unknown) => app.log.warn({ error: loggableError(error) }, 'password block e-mail not sent')),
      webpayOpenSeconds: config.webpay.settleAfterSeconds,
    }),
    vouchers: createVoucherService(database.db),
    authoriser,
    authoriserWebhook: createWebhookDelivery(database.db, config.authoriser.webhook, app.log),
    card,
    corePostings,
    coreReconciliation: createCoreReconciliationService(database.db, core),
    notifications: createNotificationService(database.db, mailer, config.productName, config.publicBaseUrl, config.productSlug, app.log),
    mailer,
    mailDelivery: createMailDelivery(database.db, mailer, app.log),
  });
  registerErrorHandling(app);
  app.decorate('metrics', registerMetrics(app));
  app.decorate('scheduler', createScheduler(backgroundJobs(app, clock), app.log, app.metrics.registry));
  app.addHook('onClose', () => app.scheduler.stop());
  await registerOpenApi(app);
  headers.register(app);
  const rateLimits = await registerRateLimit(app, config.redisUrl);
  rateLimitGauge(app.metrics.registry, rateLimits);

  const paymentTypes = createPaymentTypeCheck(core, app.log);
  void paymentTypes.refresh();
  await app.register(healthRoutes, { rateLimits, paymentTypes });
  await app.register(consultarParametrosRoute);
  await app.register(captchaRoutes);
  await app.register(disponibilidadRoute, { clock });
  await app.register(listarProductosRoute);
  await app.register(seleccionarProductoRoute);
  await app.register(cuentaVistaRoutes);
  await app.register(consultarPagoRoute);
  await app.register(pagoExpressRoutes);
  await app.register(notificacionesRoutes);
  await app.register(verificarComprobanteRoute);
  await app.register(auditoriaRoutes);
  await app.register(autorizadorRoutes);
  if (config.sandbox) await app.register(sandboxRoutes, { clock });

  // The operator's surfaces (admin API, metrics, OpenAPI) on their own listener when ADMIN_PORT is set (always in
  // production), else on the member's.
  const operator = config.operatorListener ? newInstance(config, headers, options.logger) : app;
  if (operator !== app) {
    operator.decorate('config', config);
    operator.decorate('database', database);
    operator.decorate('services', app.services);
    operator.decorate('metrics', app.metrics);
    registerErrorHandling(operator);
    await registerOpenApi(operator);
    headers.register(operator);
    await registerRateLimit(operator, config.redisUrl);
    await operator.register(healthRoutes, { rateLimits, paymentTypes });
    operator.setNotFoundHandler(notFound);
    app.addHook('onClose', async () => operator.close());
  }
  app.decorate('operator', operator);
  serveMetrics(operator, app.metrics.registry);
  serveOpenApi(operator, operator === app ? [app] : [app, operator]);
  await operator.register(adminRoutes, { prefix: '/admin' });
  await registerOperatorConsole(operator);
  await registerConsoleApp(operator, config.consoleDist);

  const spaFallback = await registerWebApp(app, config.webDist, headers);
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && spaFallback?.(request.url, reply)) return reply;
    return notFound(request, reply);
  });

  if (operator !== app) await operator.ready();
  return app;
}

/**
 * The operator console's sign-in on the operator's listener (decision 034): the configured provider, or the sandbox's
 * embedded one, which the API reaches in-process (no network, whatever port the listener has).
 */
async function registerOperatorConsole(operator: FastifyInstance): Promise<void> {
  const settings = operator.config.operatorConsole;
  // The embedded provider is the sandbox's only, whatever else the configuration says.
  const embeddedAllowed = operator.config.sandbox && operator.config.nodeEnv !== 'production';
  const provider = settings.provider?.embedded && !embeddedAllowed ? null : settings.provider;
  let fetchProvider: CustomFetch | undefined;
  if (provider?.embedded) {
    const redirectUri = `${settings.baseUrl}/operador/callback`;
    const sandbox = createSandboxProvider({ issuer: provider.issuer, clientSecret: provider.clientSecret, redirectUri, postLogoutRedirectUri: `${settings.baseUrl}/operador/` });
    await operator.register(sandboxProviderRoutes, { provider: sandbox });
    fetchProvider = injectFetch(operator);
  }
  const relyingParty = provider
    ? createRelyingParty({
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        redirectUri: `${settings.baseUrl}/operador/callback`,
        scope: settings.scope,
        rolesClaim: settings.rolesClaim,
        requireMfa: settings.requireMfa,
        mfaAcrValues: settings.mfaAcrValues,
        allowHttp: operator.config.nodeEnv !== 'production',
        fetch: fetchProvider,
      })
    : null;
  await operator.register(signInRoutes, { relyingParty });
}

/** fetch() answered by this instance's own routes: the embedded provider, as openid-client would reach it by HTTP. */
function injectFetch(instance: FastifyInstance): CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const body = options.body;
    const res = await instance.inject({
      method: (options.method ?? 'GET') as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: { ...(options.headers as Record<string, string>), host: target.host },
      ...(typeof body === 'string' ? { payload: body } : body instanceof URLSearchParams ? { payload: body.toString() } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, String(value));
    }
    return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };
}

/** Every replica's background work (scheduler.ts): each job shares its rows out with the other replicas. */
function backgroundJobs(app: FastifyInstance, clock: Clock): Job[] {
  const { config, services, database, metrics } = app;
  const jobs: Job[] = [
    {
      name: 'webpay-reconciliation',
      everyMs: config.webpay.reconcileIntervalSeconds * 1000,
      run: async () => {
        const { failed } = await services.card.reconcileOnce();
        metrics.reconciliationFailures.inc(failed);
      },
    },
    { name: 'core-postings', everyMs: config.core.postIntervalSeconds * 1000, run: async () => void (await services.corePostings.postDue()) },
    {
      name: 'core-reconciliation',
      everyMs: 60 * 60_000,
      run: async () => {
        // Yesterday's business day, and today's so far: the mismatches an accountant would find.
        const today = businessToday(clock());
        for (const [dia, fecha] of [['hoy', today], ['ayer', addDaysWire(today, -1)]] as const) {
          const report = await services.coreReconciliation.reconcileDay(fecha);
          if ('unavailable' in report) throw new Error(`the core did not answer: ${report.unavailable}`);
          metrics.coreMismatches.set({ dia }, report.diferencias);
        }
      },
    },
    { name: 'mail-delivery', everyMs: 5_000, run: async () => void (await services.mailDelivery.deliverDue()) },
    { name: 'captcha-pruning', everyMs: PRUNE_INTERVAL_MS, run: () => services.captcha.pruneSpent() },
    { name: 'browser-log-pruning', everyMs: 60 * 60_000, run: async () => void (await pruneBrowserReports(database.db, config.browserLogRetentionDays)) },
    { name: 'trusted-device-pruning', everyMs: 60 * 60_000, run: () => pruneTrustedDevices(database.db, TRUSTED_DEVICE_DAYS) },
    { name: 'password-guard-pruning', everyMs: 60 * 60_000, run: () => pruneClientGuards(database.db) },
    // Pending transactions nobody can pay any more: their session ended and no Webpay form of theirs is open.
    {
      name: 'transaction-expiry',
      everyMs: 60_000,
      run: async () => void (await expireWithoutSession(database.db, Number(toParameterMap(await listParameters(database.db)).sessionTimeOut ?? 5))),
    },
    { name: 'operator-change-lapse', everyMs: 60_000, run: () => services.fourEyes.lapse() },
    // Reversals approved and left half way (a crash, a silent core or Webpay): each carried one step further.
    { name: 'payment-reversals', everyMs: config.core.postIntervalSeconds * 1000, run: () => services.reversals.advanceAll() },
  ];
  if (config.authoriser.webhook) jobs.push({ name: 'authoriser-webhook', everyMs: 1000, run: async () => void (await services.authoriserWebhook.deliverDue()) });
  return jobs;
}

/** One Fastify instance with the API's conventions: the member's listener, and the operator's when it has its own. */
function newInstance(config: Config, headers: ReturnType<typeof securityHeaders>, logger: FastifyServerOptions['logger']) {
  const app = Fastify({
    logger: logger ?? false,
    genReqId: () => randomUUID(),
    // One line per request, written when it ends (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    bodyLimit: 64 * 1024,
    // connectionTimeout stays unset: it drops the socket with no answer. handlerTimeout is set per route (below).
    // A client that has not sent its whole request (64 KiB at most) by then is dropped (408).
    requestTimeout: config.requestTimeoutMs,
    // Only the configured proxies: the left-most X-Forwarded-For entry is whatever the client wrote, and the
    // per-address rate limits must not be bypassed by forging it.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // The router refuses a malformed percent-encoding or an over-long path segment before any hook runs; without
    // this, that answer would carry neither the catalogue envelope nor the security headers.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      headers.forRouterErrors(request, reply);
      reply
        .code(error.statusCode === 414 ? 414 : 400)
        .send(errorEnvelope(DEFAULT_RESPONSE_NAME, '400'));
    },
  }).withTypeProvider<ZodTypeProvider>();
  registerClient(app, config.clientIpv6Prefix);
  // A request still unanswered after handlerTimeout gets 503 with the envelope (error-handler.ts).
  app.addHook('onRoute', (route) => {
    route.handlerTimeout ??= config.requestTimeoutMs;
  });
  // Every call speaks JSON only: any other content type is refused with 415 before a handler sees it.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (logger) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info({ res: reply, req: request, responseTime: reply.elapsedTime }, 'request completed');
      done();
    });
  }
  return app;
}

/** A JSON 404 with the envelope, for what no route serves (the SPA's own routes aside). */
function notFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send(errorEnvelope(DEFAULT_RESPONSE_NAME, '400', 'Recurso no encontrado.'));
}
