import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { INTEGRATION_API_KEYS, INTEGRATION_COMMERCE_CODES, tb } from './services/transbank';

const flag = z.enum(['0', '1']).transform((v) => v === '1');

// The sandbox's admin token: usable only in sandbox mode outside production, so a forgotten ADMIN_TOKEN never
// leaves a real deployment open with a known secret.
export const SANDBOX_ADMIN_TOKEN = 'sandbox-admin-token';

/** The operator's port in production when ADMIN_PORT is not set. */
const DEFAULT_ADMIN_PORT = 3100;

/**
 * This machine's addresses in every spelling the URL parser leaves: IPv4 loopback and "this network" (the parser
 * already turns 2130706433 or 0x7f.1 into 127.0.0.1), IPv6 loopback and unspecified, and IPv4 ones mapped, embedded
 * or translated into IPv6 ([::ffff:127.0.0.1] reads as ::ffff:7f00:1).
 */
const LOCAL_ADDRESSES = new BlockList();
LOCAL_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL_ADDRESSES.addSubnet('0.0.0.0', 8, 'ipv4');
LOCAL_ADDRESSES.addAddress('::1', 'ipv6');
LOCAL_ADDRESSES.addAddress('::', 'ipv6');
for (const prefix of ['::ffff:', '::', '64:ff9b::', '::ffff:0:']) {
  LOCAL_ADDRESSES.addSubnet(`${prefix}127.0.0.0`, 104, 'ipv6');
  LOCAL_ADDRESSES.addSubnet(`${prefix}0.0.0.0`, 104, 'ipv6');
}

/** Link-local addresses (169.254.0.0/16, fe80::/10), the IPv4 ones in the IPv6 spellings too: a cloud's metadata service lives there. */
const LINK_LOCAL_ADDRESSES = new BlockList();
LINK_LOCAL_ADDRESSES.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL_ADDRESSES.addSubnet('fe80::', 10, 'ipv6');
for (const prefix of ['::ffff:', '::', '64:ff9b::', '::ffff:0:']) LINK_LOCAL_ADDRESSES.addSubnet(`${prefix}169.254.0.0`, 112, 'ipv6');

/** Listening on these addresses is listening on every interface. */
const UNSPECIFIED_ADDRESSES = new BlockList();
UNSPECIFIED_ADDRESSES.addAddress('0.0.0.0', 'ipv4');
UNSPECIFIED_ADDRESSES.addAddress('::', 'ipv6');
UNSPECIFIED_ADDRESSES.addAddress('::ffff:0.0.0.0', 'ipv6');

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

const inList = (list: BlockList, address: string) => {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  return isIP(ip) !== 0 && list.check(ip, familyOf(ip));
};

/** A URL on this machine (localhost or a loopback address): never what production should point at. */
export function isLocalUrl(url: string): boolean {
  const host = hostOf(url);
  return host === 'localhost' || host.endsWith('.localhost') || inList(LOCAL_ADDRESSES, host);
}

/** A link-local address, in any spelling the URL parser leaves. */
export const isLinkLocalAddress = (address: string) => inList(LINK_LOCAL_ADDRESSES, address);

/** An address of this machine (loopback, unspecified) or a link-local one: no core banking system answers there. */
export const isLocalOrLinkLocalAddress = (address: string) => inList(LOCAL_ADDRESSES, address) || isLinkLocalAddress(address);

/** A listener's host as the system binds it: `0`, `0x0` or `[::]` are the unspecified address to it too. */
function listensEverywhere(host: string): boolean {
  let ip = host;
  if (isIP(ip) === 0 && URL.canParse(`http://${host}`)) ip = new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '');
  return isIP(ip) !== 0 && UNSPECIFIED_ADDRESSES.check(ip, familyOf(ip));
}

/**
 * A secret typed rather than generated: fewer than 8 different characters ('x' × 40, 'changeme' × 4) or one shorter
 * string repeated ('0123456789abcdef' × 2); a floor, not a measure of strength. A random key of 32 hex digits has
 * fewer than 16 different ones nine times in ten, and fewer than 8 about once in 3 × 10^7: hence 8.
 */
export function isWeakSecret(secret: string): boolean {
  if (new Set(secret).size < 8) return true;
  for (let n = 1; n <= secret.length / 2; n++) {
    if (secret.length % n === 0 && secret.slice(0, n).repeat(secret.length / n) === secret) return true;
  }
  return false;
}

/** Mail only over TLS: smtps://, or smtp:// with STARTTLS required (nodemailer reads ?requireTLS=true from the URL). */
function isPlainTextSmtp(url: string): boolean {
  if (!URL.canParse(url)) return true;
  const parsed = new URL(url);
  return parsed.protocol !== 'smtps:' && parsed.searchParams.get('requireTLS') !== 'true';
}

/** The least proof of work production accepts (ALTCHA_COUNTER_MIN and _MAX): about 10 ms of a phone's time. */
const PRODUCTION_MIN_ALTCHA_COUNTER = 1_000;

const envSchema = z
  .object({
    // No default: a server started without it would run without production's checks (and with the admin API on the
    // members' port, and operators signing in without a second factor).
    NODE_ENV: z.enum(['development', 'production', 'test'], {
      error: (issue) => (issue.input === undefined ? 'must be set: production for a real deployment, development or test otherwise' : 'must be production, development or test'),
    }),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** The operator's listener (admin API, /metrics, /docs): its own port in production, the member's otherwise. */
    ADMIN_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    /** The schema owner's URL: migrations run as it and grant DATABASE_URL's role all but changing the audit trail. */
    DATABASE_OWNER_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    PGLITE_DIR: z.string().min(1).default('./data'),
    SANDBOX: flag.default(false),
    SEED_DEMO: flag.optional(),
    ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    PRODUCT_SLUG: z
      .string()
      .regex(/^[a-z][a-z0-9]{1,19}$/, 'lower-case letters and digits, 2 to 20')
      .default('coop'),
    PRODUCT_NAME: z.string().min(1).max(60).default('Cooperativa'),
    // The web build reads the same PRODUCT_* variables: its links to the cooperative's pages.
    PRODUCT_SITE_URL: z.url().optional(),
    PRODUCT_PASSWORD_RECOVERY_URL: z.url().optional(),
    WEB_DIST: z.string().min(1).optional(),
    /** The operator console's build (apps/console/dist); found beside the API's when unset. */
    CONSOLE_DIST: z.string().min(1).optional(),
    /**
     * Addresses or CIDRs of the proxies in front of the API (the load balancer's), comma-separated. Only their
     * X-Forwarded-For is believed; unset, none is (a client can write one itself).
     */
    TRUST_PROXY: z
      .string()
      .regex(/^[0-9a-fA-F:./]+(\s*,\s*[0-9a-fA-F:./]+)*$/, 'comma-separated IP addresses or CIDRs')
      .optional(),
    /** How many bits of an IPv6 address make one client for every guard and limit (a subscriber gets a /64). */
    CLIENT_IPV6_PREFIX: z.coerce.number().int().min(32).max(128).default(64),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    /** HMAC secret of the captcha challenges; every replica must share it. */
    ALTCHA_HMAC_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Proof-of-work size: the solver tries on average about (min+max)/2 hashes. */
    ALTCHA_COUNTER_MIN: z.coerce.number().int().min(1).default(5_000),
    ALTCHA_COUNTER_MAX: z.coerce.number().int().min(1).default(10_000),
    RATE_LIMIT_LISTAR_PER_IP: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_LISTAR_PER_RUT: z.coerce.number().int().min(1).default(10),
    RATE_LIMIT_LISTAR_RUT_CEILING: z.coerce.number().int().min(1).default(100),
    /** Past the ceiling, listings of that RUT one client may still make in the 15 minutes (its earlier ones count). */
    RATE_LIMIT_LISTAR_PAST_CEILING: z.coerce.number().int().min(1).default(3),
    RATE_LIMIT_LOGIN_PER_IP: z.coerce.number().int().min(1).default(30),
    /** Logins naming one payer from one client, per 15 minutes: wrong passwords are throttled before they block. */
    RATE_LIMIT_LOGIN_PER_PAYER: z.coerce.number().int().min(1).default(10),
    /** Other payers one client may give a wrong password for within an hour; the next one is refused (decision 032). */
    RATE_LIMIT_LOGIN_FAILED_PAYERS: z.coerce.number().int().min(1).default(5),
    // The authoriser screen polls call 6 every second for up to two minutes.
    RATE_LIMIT_PAY_PER_IP: z.coerce.number().int().min(1).default(600),
    RATE_LIMIT_MAIL_PER_SESSION: z.coerce.number().int().min(1).default(5),
    // The costly calls a session may repeat (per 10 minutes), and what one client may ask of all its sessions.
    RATE_LIMIT_MAIL_PER_IP: z.coerce.number().int().min(1).default(20),
    RATE_LIMIT_PDF_PER_SESSION: z.coerce.number().int().min(1).default(20),
    RATE_LIMIT_PDF_PER_IP: z.coerce.number().int().min(1).default(60),
    RATE_LIMIT_VERIFY_PER_IP: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_SELECT_PER_SESSION: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_SELECT_PER_IP: z.coerce.number().int().min(1).default(120),
    /** Call 11's reports per client and minute. */
    RATE_LIMIT_LOG_PER_IP: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_ADMIN_PER_IP: z.coerce.number().int().min(1).default(120),
    /** Days a browser's report (call 11) stays in the audit trail; the server's own events stay for good. */
    BROWSER_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_CAPTCHA_PER_IP: z.coerce.number().int().min(1).default(60),
    /** The authoriser devices' calls (enrolment, pending requests, decisions) per client and minute. */
    RATE_LIMIT_AUTHORISER_PER_IP: z.coerce.number().int().min(1).default(60),
    /** Returns from Webpay per client per minute; past it the browser goes to the result page with nothing done. */
    RATE_LIMIT_RETURN_PER_IP: z.coerce.number().int().min(1).default(30),
    /** The app's backend, told of every push so it can wake the member's phone; unset: devices poll. */
    AUTHORISER_WEBHOOK_URL: z.url().optional(),
    /** HMAC-SHA256 key of the webhook's signature, shared with the app's backend. */
    AUTHORISER_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Days an enrolment code issued by the operator stays valid. */
    AUTHORISER_ENROLMENT_CODE_DAYS: z.coerce.number().int().min(1).max(90).default(7),
    /** Where Transbank's REST API is: the simulator by default, Transbank's integration or production host for real. */
    WEBPAY_BASE_URL: z.url().default('http://localhost:3001'),
    WEBPAY_COMMERCE_CODE: z.string().regex(/^\d{12}$/, 'must be a 12-digit commerce code').optional(),
    WEBPAY_API_KEY: z.string().min(16).optional(),
    WEBPAY_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
    /**
     * Bounds on every wait for PostgreSQL, so that a network partition that drops packets (no reset) fails requests
     * instead of hanging them. Connect also bounds the wait for a free pooled connection. The statement timeout is
     * the server's (it cancels cleanly, the connection stays usable) and fires before the client's query timeout,
     * which only gives up on a server that cannot answer at all (the connection is then discarded).
     */
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(12_000),
    DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    /** The server ends a session left inside a transaction this long (its client gone): its row locks are released. */
    DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** A request not answered by then gets 503 with the envelope (Fastify's handlerTimeout; also bounds reading it). */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    PASSWORD_LOCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
    /** Wrong passwords in a row, from three clients or more, that block a RUT on every client (NIST SP 800-63B: 100). */
    PASSWORD_BLOCK_FAILURES: z.coerce.number().int().min(3).max(100).default(100),
    /**
     * How long a replica serves the parameters it read (at most a second); an operator's change is answered after
     * that long, and then applies on every replica. 0: every call reads the table.
     */
    PARAMETERS_CACHE_MS: z.coerce.number().int().min(0).max(1_000).default(1_000),
    /** The origin browsers use to reach this server; Webpay returns the member to it. */
    PUBLIC_BASE_URL: z.url().optional(),
    /** A card payment still pending this long after its form opened is settled by asking Webpay (form: 5 min). */
    WEBPAY_SETTLE_AFTER_SECONDS: z.coerce.number().int().min(0).default(420),
    RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
    /** smtp(s)://user:pass@host:port for the voucher e-mails; unset: the sandbox outbox. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Pago Online <no-reply@cooperativa.example>'),
    /** The core banking system's Fineract API, up to and including `/api`: the core simulator by default. */
    CORE_BASE_URL: z.url().optional(),
    CORE_USERNAME: z.string().min(1).optional(),
    CORE_PASSWORD: z.string().min(1).optional(),
    CORE_TENANT: z.string().min(1).optional(),
    CORE_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
    /** The core's payment type (Fineract's paymentTypeId) for money Webpay took. */
    CORE_WEBPAY_PAYMENT_TYPE_ID: z.coerce.number().int().min(1).default(1),
    /** The core's payment type of an own-account payment of several products (a batch of a withdrawal and credits). */
    CORE_TRANSFER_PAYMENT_TYPE_ID: z.coerce.number().int().min(1).default(2),
    /** How often each replica sends the core the postings due (card credits, debits left without an answer). */
    CORE_POST_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3_600).default(5),
    /** The cooperative's identity provider for the operator console (decision 034); the sandbox embeds its own. */
    OIDC_ISSUER: z.url().optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    /** The ID token claim with the operator's roles (agente, operaciones, finanzas, auditor, admin). */
    OIDC_ROLES_CLAIM: z.string().min(1).optional(),
    OIDC_SCOPES: z.string().min(6).optional(),
    /** Refuse sign-ins without a second factor (amr/acr): always on in production, off by default elsewhere. */
    OIDC_REQUIRE_MFA: flag.optional(),
    /** acr values that count as multi-factor, comma-separated. */
    OIDC_MFA_ACR: z.string().optional(),
    /** The origin operators' browsers reach the operator's listener at (the console, the sign-in's redirect). */
    OPERATOR_BASE_URL: z.url().optional(),
    OPERATOR_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(240).default(15),
    OPERATOR_SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(24).default(8),
    /** How long a four-eyes change waits for a second operator before it lapses. */
    FOUR_EYES_HOURS: z.coerce.number().int().min(1).max(168).default(24),
    /** Sandbox only: the business clock starts at this instant (ISO 8601) and runs from there. */
    SANDBOX_CLOCK: z.iso.datetime({ offset: true }).optional(),
  })
  .transform((env, ctx) => {
    // Every problem is named at once, so an operator fixes them in one go.
    let problems = 0;
    const problem = (name: string, message: string) => {
      problems += 1;
      ctx.addIssue({ code: 'custom', path: [name], message });
    };
    // Production refuses every sandbox switch (a demo seed, the sandbox pages, the simulators, a local origin) and every
    // published default: Transbank's integration credentials, Fineract's demo user, a secret that was typed.
    const refusedInProduction: [string, boolean, string][] = [
      ['SANDBOX', env.SANDBOX, 'must be off in production (the sandbox shows coordinate cards and approves pushes)'],
      ['SEED_DEMO', env.SEED_DEMO === true, 'must be off in production (the demo members have password 1234)'],
      ['WEBPAY_BASE_URL', isLocalUrl(env.WEBPAY_BASE_URL), "must be Transbank's host in production, not the simulator"],
      ['CORE_BASE_URL', env.CORE_BASE_URL !== undefined && isLocalUrl(env.CORE_BASE_URL), "must be the core banking system's host in production, not the simulator"],
      ['CORE_BASE_URL', env.CORE_BASE_URL !== undefined && isLinkLocalAddress(hostOf(env.CORE_BASE_URL)), 'must not be a link-local address in production'],
      // The core's user and password travel in every call to it.
      ['CORE_BASE_URL', env.CORE_BASE_URL !== undefined && !env.CORE_BASE_URL.startsWith('https://'), 'must be an https:// URL in production'],
      ['CORE_USERNAME', env.CORE_USERNAME === 'mifos', "must not be Fineract's default user (mifos) in production: give the API a user of its own"],
      ['CORE_PASSWORD', env.CORE_PASSWORD === 'password', "must not be Fineract's default password in production"],
      ['WEBPAY_COMMERCE_CODE', env.WEBPAY_COMMERCE_CODE !== undefined && INTEGRATION_COMMERCE_CODES.has(env.WEBPAY_COMMERCE_CODE), "is one of Transbank's public integration codes: production needs the mall code Transbank issued"],
      ['WEBPAY_API_KEY', env.WEBPAY_API_KEY !== undefined && INTEGRATION_API_KEYS.has(env.WEBPAY_API_KEY.toUpperCase()), "is Transbank's public integration key: production needs the key Transbank issued"],
      ['ALTCHA_HMAC_SECRET', env.ALTCHA_HMAC_SECRET !== undefined && isWeakSecret(env.ALTCHA_HMAC_SECRET), 'must be generated, not typed, in production (8 or more different characters, no repeated pattern): openssl rand -hex 32'],
      ['OIDC_CLIENT_SECRET', env.OIDC_CLIENT_SECRET !== undefined && env.OIDC_CLIENT_SECRET.length < 32, 'must be at least 32 characters in production'],
      ['OIDC_REQUIRE_MFA', env.OIDC_REQUIRE_MFA === false, 'must not be 0 in production: operators sign in with a second factor'],
      // The admin API, /metrics and /docs would answer on every network the host is on.
      ['ADMIN_HOST', listensEverywhere(env.ADMIN_HOST), "must be one address in production (127.0.0.1, or the internal network's), not every interface"],
      // Any client could then write the address the rate limits count.
      ['TRUST_PROXY', (env.TRUST_PROXY ?? '').split(',').some((entry) => entry.includes('/') && Number(entry.split('/')[1]) === 0), "must name the load balancer's addresses in production, not every address (/0)"],
      ['DATABASE_URL', !env.DATABASE_URL, "is required in production (unset, the data would be PGlite's, on this machine's disk only)"],
      // Vouchers (the member's name, amounts, account numbers) and the mail server's password travel over it.
      ['SMTP_URL', env.SMTP_URL !== undefined && isPlainTextSmtp(env.SMTP_URL), 'must be smtps://, or smtp:// with ?requireTLS=true, in production'],
      ['SMTP_URL', env.SMTP_URL !== undefined && /[?&]tls\.rejectUnauthorized=false(&|$)/.test(env.SMTP_URL), "must not turn off the mail server's certificate check in production"],
      ['AUTHORISER_WEBHOOK_URL', env.AUTHORISER_WEBHOOK_URL !== undefined && !env.AUTHORISER_WEBHOOK_URL.startsWith('https://'), 'must be an https:// URL in production'],
      ['PUBLIC_BASE_URL', !env.PUBLIC_BASE_URL || isLocalUrl(env.PUBLIC_BASE_URL), 'must be the public origin members use in production'],
      // Members' session tokens and the captcha travel to it; Webpay returns the member there.
      ['PUBLIC_BASE_URL', !!env.PUBLIC_BASE_URL && !env.PUBLIC_BASE_URL.startsWith('https://'), 'must be an https:// origin in production'],
      // The commerce's API key travels in every call to Webpay.
      ['WEBPAY_BASE_URL', !env.WEBPAY_BASE_URL.startsWith('https://'), 'must be an https:// URL in production'],
      ['ALTCHA_COUNTER_MIN', env.ALTCHA_COUNTER_MIN < PRODUCTION_MIN_ALTCHA_COUNTER, `must be at least ${PRODUCTION_MIN_ALTCHA_COUNTER} in production (a smaller proof of work costs a bot nothing)`],
      ['ALTCHA_COUNTER_MAX', env.ALTCHA_COUNTER_MAX < PRODUCTION_MIN_ALTCHA_COUNTER, `must be at least ${PRODUCTION_MIN_ALTCHA_COUNTER} in production`],
      // Machines use named, scoped, revocable tokens; the first is issued with DATABASE_URL (decision 034).
      [
        'ADMIN_TOKEN',
        env.ADMIN_TOKEN !== undefined,
        'must not be set in production: issue named machine tokens (npm run admin -- tokens issue NAME SCOPES --database, or Tokens in the console)',
      ],
      // Unset, the member's links lead to the sandbox's stand-in pages, which production does not serve.
      ['PRODUCT_SITE_URL', !env.PRODUCT_SITE_URL || isLocalUrl(env.PRODUCT_SITE_URL), "must be the cooperative's site in production"],
      [
        'PRODUCT_PASSWORD_RECOVERY_URL',
        !env.PRODUCT_PASSWORD_RECOVERY_URL || isLocalUrl(env.PRODUCT_PASSWORD_RECOVERY_URL),
        "must be the cooperative's password recovery page in production",
      ],
    ];
    for (const [name, refused, message] of refusedInProduction) {
      if (env.NODE_ENV === 'production' && refused) problem(name, message);
    }
    if (env.NODE_ENV === 'production' && !env.ALTCHA_HMAC_SECRET) problem('ALTCHA_HMAC_SECRET', 'is required in production');
    if (env.NODE_ENV === 'production' && !env.WEBPAY_COMMERCE_CODE) problem('WEBPAY_COMMERCE_CODE', 'is required in production');
    if (env.NODE_ENV === 'production' && !env.WEBPAY_API_KEY) problem('WEBPAY_API_KEY', 'is required in production');
    // The core owns the money: production names its host and credentials, never the simulator's defaults.
    for (const name of ['CORE_BASE_URL', 'CORE_USERNAME', 'CORE_PASSWORD', 'CORE_TENANT'] as const) {
      if (env.NODE_ENV === 'production' && !env[name]) problem(name, 'is required in production');
    }
    if (env.NODE_ENV === 'production' && !env.SANDBOX && !env.SMTP_URL) problem('SMTP_URL', 'is required in production (the sandbox outbox delivers nothing)');
    if (env.AUTHORISER_WEBHOOK_URL && !env.AUTHORISER_WEBHOOK_SECRET) problem('AUTHORISER_WEBHOOK_SECRET', 'is required with AUTHORISER_WEBHOOK_URL');
    if (env.SANDBOX_CLOCK && !env.SANDBOX) problem('SANDBOX_CLOCK', 'is only allowed in sandbox mode (SANDBOX=1)');
    if (env.ALTCHA_COUNTER_MAX < env.ALTCHA_COUNTER_MIN) problem('ALTCHA_COUNTER_MAX', 'must not be below ALTCHA_COUNTER_MIN');
    if (env.DB_STATEMENT_TIMEOUT_MS >= env.DB_QUERY_TIMEOUT_MS) {
      problem('DB_STATEMENT_TIMEOUT_MS', 'must be below DB_QUERY_TIMEOUT_MS (the server cancels first, cleanly)');
    }
    if (env.REQUEST_TIMEOUT_MS <= env.DB_CONNECT_TIMEOUT_MS + env.DB_QUERY_TIMEOUT_MS || env.REQUEST_TIMEOUT_MS <= env.WEBPAY_TIMEOUT_MS) {
      problem('REQUEST_TIMEOUT_MS', 'must be above DB_CONNECT_TIMEOUT_MS + DB_QUERY_TIMEOUT_MS and above WEBPAY_TIMEOUT_MS (their own timeouts answer first)');
    }
    // ADMIN_TOKEN is the bootstrap machine token of the sandbox and development (decision 034); the sandbox has a known one.
    const adminToken = env.ADMIN_TOKEN ?? (env.SANDBOX && env.NODE_ENV !== 'production' ? SANDBOX_ADMIN_TOKEN : null);
    // Production signs operators in at the cooperative's provider: each missing piece is named.
    if (env.NODE_ENV === 'production') {
      for (const name of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLES_CLAIM', 'OPERATOR_BASE_URL'] as const) {
        if (!env[name]) problem(name, 'is required in production (the operator console signs in at the cooperative\'s identity provider)');
      }
      if (env.OIDC_ISSUER && !env.OIDC_ISSUER.startsWith('https://')) problem('OIDC_ISSUER', 'must be an https:// URL in production');
      if (env.OPERATOR_BASE_URL && !env.OPERATOR_BASE_URL.startsWith('https://')) problem('OPERATOR_BASE_URL', 'must be an https:// origin in production (the session cookie is Secure)');
    }
    const oidcPieces = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].filter(Boolean).length;
    if (oidcPieces > 0 && oidcPieces < 3) {
      for (const name of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) if (!env[name]) problem(name, 'is required with the other OIDC_ variables');
    }
    if (env.ADMIN_PORT !== undefined && env.ADMIN_PORT !== 0 && env.ADMIN_PORT === env.PORT) {
      problem('ADMIN_PORT', 'must differ from PORT: the operator surfaces do not share the members\' port');
    }
    if (problems > 0) return z.NEVER;
    const adminPort = env.ADMIN_PORT ?? (env.NODE_ENV === 'production' ? DEFAULT_ADMIN_PORT : undefined);
    return {
      nodeEnv: env.NODE_ENV,
      host: env.HOST,
      port: env.PORT,
      operatorListener: adminPort === undefined ? null : { host: env.ADMIN_HOST, port: adminPort },
      logLevel: env.LOG_LEVEL,
      databaseUrl: env.DATABASE_URL,
      databaseOwnerUrl: env.DATABASE_OWNER_URL,
      pgliteDir: env.PGLITE_DIR,
      databaseTimeouts: {
        connectMs: env.DB_CONNECT_TIMEOUT_MS,
        statementMs: env.DB_STATEMENT_TIMEOUT_MS,
        queryMs: env.DB_QUERY_TIMEOUT_MS,
        idleInTransactionMs: env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      },
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      passwordLockMinutes: env.PASSWORD_LOCK_MINUTES,
      passwordBlockFailures: env.PASSWORD_BLOCK_FAILURES,
      parametersCacheMs: env.PARAMETERS_CACHE_MS,
      browserLogRetentionDays: env.BROWSER_LOG_RETENTION_DAYS,
      sandbox: env.SANDBOX,
      seedDemo: env.SEED_DEMO ?? env.SANDBOX,
      adminToken,
      operatorConsole: operatorConsoleOf(env),
      productSlug: env.PRODUCT_SLUG,
      productName: env.PRODUCT_NAME,
      webDist: env.WEB_DIST,
      consoleDist: env.CONSOLE_DIST,
      trustProxy: env.TRUST_PROXY ? env.TRUST_PROXY.split(',').map((a) => a.trim()) : [],
      clientIpv6Prefix: env.CLIENT_IPV6_PREFIX,
      redisUrl: env.REDIS_URL,
      // Without a configured secret (sandbox, one process) a fresh random one per boot is as good as any.
      altchaSecret: env.ALTCHA_HMAC_SECRET ?? randomBytes(32).toString('hex'),
      altchaCounter: { min: env.ALTCHA_COUNTER_MIN, max: env.ALTCHA_COUNTER_MAX },
      rateLimits: {
        listarPerIp: env.RATE_LIMIT_LISTAR_PER_IP,
        listarPerRut: env.RATE_LIMIT_LISTAR_PER_RUT,
        listarRutCeiling: env.RATE_LIMIT_LISTAR_RUT_CEILING,
        listarPastCeiling: env.RATE_LIMIT_LISTAR_PAST_CEILING,
        loginPerIp: env.RATE_LIMIT_LOGIN_PER_IP,
        loginPerPayer: env.RATE_LIMIT_LOGIN_PER_PAYER,
        loginFailedPayers: env.RATE_LIMIT_LOGIN_FAILED_PAYERS,
        payPerIp: env.RATE_LIMIT_PAY_PER_IP,
        mailPerSession: env.RATE_LIMIT_MAIL_PER_SESSION,
        mailPerIp: env.RATE_LIMIT_MAIL_PER_IP,
        pdfPerSession: env.RATE_LIMIT_PDF_PER_SESSION,
        pdfPerIp: env.RATE_LIMIT_PDF_PER_IP,
        verifyPerIp: env.RATE_LIMIT_VERIFY_PER_IP,
        selectPerSession: env.RATE_LIMIT_SELECT_PER_SESSION,
        selectPerIp: env.RATE_LIMIT_SELECT_PER_IP,
        logPerIp: env.RATE_LIMIT_LOG_PER_IP,
        adminPerIp: env.RATE_LIMIT_ADMIN_PER_IP,
        captchaPerIp: env.RATE_LIMIT_CAPTCHA_PER_IP,
        authoriserPerIp: env.RATE_LIMIT_AUTHORISER_PER_IP,
        returnPerIp: env.RATE_LIMIT_RETURN_PER_IP,
      },
      authoriser: {
        webhook: env.AUTHORISER_WEBHOOK_URL && env.AUTHORISER_WEBHOOK_SECRET ? { url: env.AUTHORISER_WEBHOOK_URL, secret: env.AUTHORISER_WEBHOOK_SECRET } : null,
        enrolmentCodeDays: env.AUTHORISER_ENROLMENT_CODE_DAYS,
      },
      sandboxClock: env.SANDBOX_CLOCK,
      webpay: {
        baseUrl: env.WEBPAY_BASE_URL.replace(/\/$/, ''),
        // Transbank's public integration credentials: what the simulator (and Transbank's integration host) accept.
        commerceCode: env.WEBPAY_COMMERCE_CODE ?? tb.IntegrationCommerceCodes.WEBPAY_PLUS_MALL,
        apiKey: env.WEBPAY_API_KEY ?? tb.IntegrationApiKeys.WEBPAY,
        timeoutMs: env.WEBPAY_TIMEOUT_MS,
        settleAfterSeconds: env.WEBPAY_SETTLE_AFTER_SECONDS,
        reconcileIntervalSeconds: env.RECONCILE_INTERVAL_SECONDS,
      },
      core: {
        baseUrl: (env.CORE_BASE_URL ?? 'http://localhost:3002/fineract-provider/api').replace(/\/$/, ''),
        // Fineract's own demo credentials and tenant: what the core simulator accepts.
        username: env.CORE_USERNAME ?? 'mifos',
        password: env.CORE_PASSWORD ?? 'password',
        tenant: env.CORE_TENANT ?? 'default',
        timeoutMs: env.CORE_TIMEOUT_MS,
        webpayPaymentTypeId: env.CORE_WEBPAY_PAYMENT_TYPE_ID,
        transferPaymentTypeId: env.CORE_TRANSFER_PAYMENT_TYPE_ID,
        postIntervalSeconds: env.CORE_POST_INTERVAL_SECONDS,
      },
      smtpUrl: env.SMTP_URL,
      mailFrom: env.MAIL_FROM,
      publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    };
  });

/**
 * The console's sign-in: the configured provider, or in the sandbox (never production) the embedded one mounted on
 * the operator's listener; null when neither (the console then answers 503 to a sign-in).
 */
function operatorConsoleOf(env: {
  NODE_ENV: string;
  SANDBOX: boolean;
  PORT: number;
  ADMIN_PORT?: number | undefined;
  OIDC_ISSUER?: string | undefined;
  OIDC_CLIENT_ID?: string | undefined;
  OIDC_CLIENT_SECRET?: string | undefined;
  OIDC_ROLES_CLAIM?: string | undefined;
  OIDC_SCOPES?: string | undefined;
  OIDC_REQUIRE_MFA?: boolean | undefined;
  OIDC_MFA_ACR?: string | undefined;
  OPERATOR_BASE_URL?: string | undefined;
  OPERATOR_SESSION_IDLE_MINUTES: number;
  OPERATOR_SESSION_MAX_HOURS: number;
  FOUR_EYES_HOURS: number;
}) {
  const production = env.NODE_ENV === 'production';
  const baseUrl = (env.OPERATOR_BASE_URL ?? `http://localhost:${env.ADMIN_PORT || env.PORT}`).replace(/\/$/, '');
  const embedded = !production && env.SANDBOX && !env.OIDC_ISSUER;
  const provider =
    env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
      ? { issuer: env.OIDC_ISSUER, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET, embedded: false }
      : embedded
        ? { issuer: `${baseUrl}/sandbox/oidc`, clientId: 'pago-online-operador', clientSecret: randomBytes(24).toString('hex'), embedded: true }
        : null;
  return {
    baseUrl,
    provider,
    rolesClaim: env.OIDC_ROLES_CLAIM ?? 'roles',
    scope: env.OIDC_SCOPES ?? (embedded ? 'openid profile roles' : 'openid profile'),
    requireMfa: env.OIDC_REQUIRE_MFA ?? production,
    mfaAcrValues: (env.OIDC_MFA_ACR ?? '').split(',').map((v) => v.trim()).filter(Boolean),
    idleMinutes: env.OPERATOR_SESSION_IDLE_MINUTES,
    maxHours: env.OPERATOR_SESSION_MAX_HOURS,
    fourEyesHours: env.FOUR_EYES_HOURS,
  };
}

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** Reads the environment once at boot; a bad or missing value stops the boot naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  // A malformed variable stops the checks across variables; they run again without it, so that one failed boot
  // names every problem (a malformed PORT and a missing secret alike).
  const malformed = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  const others = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([name]) => !malformed.has(name))));
  const issues = [...parsed.error.issues, ...(others.success ? [] : others.error.issues.filter((issue) => !malformed.has(String(issue.path[0]))))];
  throw configError(issues.map((issue) => [issue.path.join('.') || '(environment)', issue.message]));
}

const configError = (problems: [string, string][]) => new ConfigError(`Invalid configuration:\n${problems.map(([name, message]) => `  ${name}: ${message}`).join('\n')}`);

/** Resolves a host name to all its addresses, as the process's connections will. */
export type HostLookup = (hostname: string) => Promise<{ address: string }[]>;

/**
 * Production's check that needs the network, run at boot after loadConfig: the core's host, given by name, must not
 * resolve to this machine or to a link-local address (loadConfig refuses those as literals). A name that does not
 * resolve refuses too: the check cannot be made.
 */
export async function checkProductionHosts(config: Config, resolve: HostLookup = (hostname) => lookup(hostname, { all: true })): Promise<void> {
  if (config.nodeEnv !== 'production') return;
  const host = hostOf(config.core.baseUrl);
  if (isIP(host) !== 0) return;
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw configError([['CORE_BASE_URL', `its host ${host} does not resolve (${code}), so production cannot check where it leads`]]);
  }
  const refused = addresses.map((a) => a.address).filter(isLocalOrLinkLocalAddress);
  if (refused.length > 0) {
    throw configError([['CORE_BASE_URL', `its host ${host} resolves to ${refused.join(', ')}: in production the core must not be this machine or a link-local address`]]);
  }
}
