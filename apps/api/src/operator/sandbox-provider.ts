import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash, generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { DEFAULT_RESPONSE_NAME } from '../plugins/app/error-handler';
import { documentOf, errorResponses } from '../routes/responses';
import { DEMO_OPERATORS, DEMO_OTP, type DemoOperator } from './demo-operators';

const errors = errorResponses(DEFAULT_RESPONSE_NAME);
const page = (description: string) => ({ response: { 200: documentOf('text/html', description), ...errors } });

/** Where the embedded provider is mounted on the operator's listener (sandbox only; production refuses it). */
export const SANDBOX_ISSUER_PATH = '/sandbox/oidc';
export const SANDBOX_CLIENT_ID = 'pago-online-operador';

/** oidc-provider's endpoints with the features configured below (its defaults' paths). */
const PROVIDER_PATHS = ['/.well-known/openid-configuration', '/auth', '/auth/:uid', '/token', '/jwks', '/me', '/session/end', '/session/end/confirm', '/session/end/success'];

export interface SandboxProviderOptions {
  /** The issuer's URL, ending in SANDBOX_ISSUER_PATH. */
  issuer: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

function operatorOf(usuario: string): DemoOperator | undefined {
  return DEMO_OPERATORS.find((o) => o.usuario === usuario);
}

let key: Record<string, unknown> | undefined;
/** One signing key per process: RSA generation is slow, and the sandbox's tokens need no other. */
function signingKey(): Record<string, unknown> {
  if (!key) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    key = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
  }
  return key;
}

/**
 * The sandbox's identity provider (oidc-provider): the demo operators sign in with their password, and with the demo
 * code as a second factor when they give it (amr pwd+otp). Authorization code with PKCE only, one confidential client.
 */
export function createSandboxProvider(options: SandboxProviderOptions): Provider {
  const jwk = signingKey();
  const configuration: Configuration = {
    clients: [
      {
        client_id: SANDBOX_CLIENT_ID,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.postLogoutRedirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    // amr and acr with openid: the console reads the second factor from them. The roles too, as Keycloak's and Entra's
    // ID tokens carry them whatever scopes the client asks for.
    claims: { openid: ['sub', 'acr', 'amr', 'auth_time', 'roles'], profile: ['name'], roles: ['roles'], sid: null, iss: null },
    // The console reads name, roles and amr from the ID token.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `${SANDBOX_ISSUER_PATH}/interaccion/${interaction.uid}` },
    // A first-party client: its operators are not asked to consent.
    loadExistingGrant: async (ctx) => {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile roles');
      grant.addOIDCClaims(['name', 'roles']);
      await grant.save();
      return grant;
    },
    findAccount: (_ctx, sub) => {
      const operator = operatorOf(sub);
      if (!operator) return undefined;
      return { accountId: sub, claims: () => ({ sub, name: operator.nombre, roles: operator.roles }) };
    },
    ttl: { Session: 60 * 60, Interaction: 10 * 60, AuthorizationCode: 60, AccessToken: 5 * 60, IdToken: 5 * 60, Grant: 60 * 60 },
    renderError: (ctx, out) => {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = loginPage('Error de inicio de sesión', `<h1>No se pudo iniciar sesión</h1><p>${escape(String(out.error_description ?? out.error))}</p>`);
    },
  };
  return new Provider(options.issuer, configuration);
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef2f5;color:#14232b}
header{background:#0b3f4a;color:#fff;padding:14px 20px;font-weight:700}main{max-width:480px;margin:24px auto;padding:0 20px}
h1{font-size:1.4rem;margin:0 0 12px}form{background:#fff;border:1px solid #d5dde2;border-radius:12px;padding:20px}
label{display:block;font-weight:600;margin:12px 0 4px}input{font:inherit;padding:10px 12px;border:1px solid #73868f;border-radius:8px;width:100%}
button{font:inherit;font-weight:700;padding:10px 18px;border-radius:8px;border:0;background:#0b5563;color:#fff;margin-top:16px;min-height:44px;cursor:pointer}
.error{color:#8a1c1c;font-weight:600}.note{color:#3f5661;font-size:.9rem}:focus-visible{outline:3px solid #f0a500;outline-offset:2px}`;

function loginPage(title: string, body: string): string {
  return (
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escape(title)} | Proveedor de identidad del sandbox</title><link rel="stylesheet" href="${SANDBOX_ISSUER_PATH}/estilo.css"></head>` +
    `<body><header>Proveedor de identidad del sandbox</header><main>${body}</main></body></html>`
  );
}

function loginForm(uid: string, error?: string): string {
  return loginPage(
    'Iniciar sesión',
    `<h1>Consola de operadores</h1>${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}` +
      `<form method="post" action="${SANDBOX_ISSUER_PATH}/interaccion/${escape(uid)}">` +
      `<label for="usuario">Usuario</label><input id="usuario" name="usuario" autocomplete="username" required>` +
      `<label for="clave">Clave</label><input id="clave" name="clave" type="password" autocomplete="current-password" required>` +
      `<label for="codigo">Código de verificación (segundo factor)</label><input id="codigo" name="codigo" inputmode="numeric" autocomplete="one-time-code">` +
      `<button type="submit">Ingresar</button></form><p class="note">Operadores de demostración y sus claves: /sandbox.</p>`,
  );
}

/**
 * Mounts the provider under SANDBOX_ISSUER_PATH of `app` (an encapsulated plugin): its own login pages, and every
 * other path of the prefix handed to oidc-provider as a plain Node request.
 */
export async function sandboxProviderRoutes(app: FastifyInstance, { provider }: { provider: Provider }): Promise<void> {
  const handle = provider.callback();
  // oidc-provider reads its own bodies; a form already parsed here is handed over as req.body (it accepts that).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => done(null, body));

  app.get(`${SANDBOX_ISSUER_PATH}/estilo.css`, { schema: { response: { 200: documentOf('text/css', "The sandbox provider's style"), ...errors } } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(CSS),
  );

  app.get<{ Params: { uid: string } }>(`${SANDBOX_ISSUER_PATH}/interaccion/:uid`, { schema: page("The sandbox provider's sign-in form") }, async (request, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => null);
    if (!details || details.uid !== request.params.uid) return html(reply.code(400), loginPage('Sesión vencida', '<h1>El inicio de sesión venció</h1><p>Vuelva a la consola e ingrese otra vez.</p>'));
    return html(reply, loginForm(details.uid));
  });

  app.post<{ Params: { uid: string }; Body: Record<string, string> }>(`${SANDBOX_ISSUER_PATH}/interaccion/:uid`, { schema: page('The sign-in form again, or on to the provider') }, async (request, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => null);
    if (!details || details.uid !== request.params.uid) return html(reply.code(400), loginPage('Sesión vencida', '<h1>El inicio de sesión venció</h1><p>Vuelva a la consola e ingrese otra vez.</p>'));
    const body = typeof request.body === 'object' && request.body ? request.body : {};
    const operator = operatorOf(String(body.usuario ?? ''));
    // Compared whatever the user, so that the time taken does not tell which users exist.
    const passwordOk = sameSecret(String(body.clave ?? ''), operator?.clave ?? randomBytes(16).toString('hex'));
    if (!operator || !passwordOk) return html(reply.code(401), loginForm(details.uid, 'Usuario o clave incorrectos.'));
    const codigo = String(body.codigo ?? '');
    if (codigo !== '' && !sameSecret(codigo, DEMO_OTP)) return html(reply.code(401), loginForm(details.uid, 'Código de verificación incorrecto.'));
    const amr = codigo === '' ? ['pwd'] : ['pwd', 'otp'];
    const location = await provider.interactionResult(request.raw, reply.raw, { login: { accountId: operator.usuario, amr, remember: false } }, { mergeWithLastSubmission: false });
    return reply.redirect(location, 303);
  });

  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw as IncomingMessage & { originalUrl?: string; body?: unknown };
    raw.originalUrl = raw.url;
    raw.url = (raw.url ?? '/').slice(SANDBOX_ISSUER_PATH.length) || '/';
    if (request.body !== undefined) raw.body = request.body;
    reply.hijack();
    await handle(raw, reply.raw);
  };
  // oidc-provider's own endpoints (discovery, authorization, token, JWKS, userinfo, end session) answer GET and POST.
  const provided = { response: { 200: documentOf('application/json', "oidc-provider's endpoints: discovery, authorization, token, JWKS, userinfo"), ...errors } };
  for (const path of PROVIDER_PATHS) app.route({ method: ['GET', 'POST'], url: `${SANDBOX_ISSUER_PATH}${path}`, schema: provided, handler: handOver });
}

function html(reply: FastifyReply, body: string) {
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}
