import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { codigoOkSchema, sessionSchema } from '@pago/domain/schemas/admin';
import { appendAudit } from '../repositories/audit-repository';
import { assignedRoles, endSession, insertLogin, insertSession, pruneLogins, takeLogin } from '../repositories/operator-repository';
import { documentOf, envelopeResponses, errorResponses, redirect } from '../routes/responses';
import { CSRF_HEADER, cookieOf, newSecret, resolveActor, sameSecret, SESSION_COOKIE, sha256 } from './access';
import type { RelyingParty } from './relying-party';
import { isRole, ROLE_LABELS } from './roles';

const RESPONSE = 'operadorResponse';
/** The sign-in under way: the state, bound to this browser. Lax, since the provider's redirect back is cross-site. */
const LOGIN_COOKIE = 'operador_ingreso';
const LOGIN_MAX_AGE_SECONDS = 600;

// Signed out is an answer, not an error: the console asks this first on every load.
const sessionView = envelopeResponses(RESPONSE, sessionSchema);
const done = envelopeResponses(RESPONSE, codigoOkSchema);

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A small page of the console's own (no script: the CSP allows none inline). */
function page(reply: FastifyReply, title: string, body: string, refreshTo?: string) {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        (refreshTo ? `<meta http-equiv="refresh" content="0;url=${escape(refreshTo)}">` : '') +
        `<title>${escape(title)} | Consola de operadores</title></head><body><main><h1>${escape(title)}</h1>${body}</main></body></html>`,
    );
}

const cookie = (name: string, value: string, attributes: string) => `${name}=${encodeURIComponent(value)}; ${attributes}`;

/**
 * The console's sign-in (decision 034): /operador/entrar starts authorization code + PKCE at the provider,
 * /operador/callback opens a session in PostgreSQL (httpOnly, Secure, SameSite=Strict cookie), /operador/salir ends it
 * on the server, /operador/api/sesion says who is signed in (null when nobody) and hands the console its CSRF token.
 */
export async function signInRoutes(app: FastifyInstance, { relyingParty }: { relyingParty: RelyingParty | null }): Promise<void> {
  const db = app.database.db;
  const settings = app.config.operatorConsole;
  const r = app.withTypeProvider<ZodTypeProvider>();

  const pages = (description: string) => ({ 200: documentOf('text/html', description), ...errorResponses(RESPONSE) });

  r.get('/operador/entrar', { schema: { response: { 303: redirect("To the identity provider's authorization endpoint"), ...pages('The sign-in is not available') } } }, async (request, reply) => {
    if (!relyingParty) return page(reply.code(503), 'Inicio de sesión no disponible', '<p>La consola no tiene un proveedor de identidad configurado (OIDC_ISSUER).</p>');
    let started;
    try {
      started = await relyingParty.start();
    } catch (error) {
      request.log.error({ error: error instanceof Error ? error.message : String(error) }, 'the identity provider did not answer its discovery');
      return page(reply.code(503), 'Inicio de sesión no disponible', '<p>El proveedor de identidad no responde. Intente en unos minutos.</p>');
    }
    await pruneLogins(db, LOGIN_MAX_AGE_SECONDS);
    await insertLogin(db, { stateHash: sha256(started.state), codeVerifier: started.codeVerifier, nonce: started.nonce });
    return reply
      .header('set-cookie', cookie(LOGIN_COOKIE, started.state, `Path=/operador; Max-Age=${LOGIN_MAX_AGE_SECONDS}; HttpOnly; Secure; SameSite=Lax`))
      .header('cache-control', 'no-store')
      .redirect(started.url, 303);
  });

  r.get(
    '/operador/callback',
    { schema: { response: pages('Signed in (a page that moves on to /operador/), or why not'), querystring: z.looseObject({ state: z.string().max(512).optional(), code: z.string().max(4096).optional(), error: z.string().max(200).optional() }) } },
    async (request, reply) => {
      const clearLogin = cookie(LOGIN_COOKIE, '', 'Path=/operador; Max-Age=0; HttpOnly; Secure; SameSite=Lax');
      const again = '<p><a href="/operador/entrar">Volver a ingresar</a></p>';
      const state = request.query.state ?? '';
      const bound = cookieOf(request, LOGIN_COOKIE);
      // The state must come back to the browser that asked for it (no login CSRF), once.
      if (!relyingParty || !state || !bound || !sameSecret(state, bound)) {
        return page(reply.code(400).header('set-cookie', clearLogin), 'No se pudo iniciar sesión', `<p>El inicio de sesión no corresponde a este navegador o venció.</p>${again}`);
      }
      const login = await takeLogin(db, sha256(state), LOGIN_MAX_AGE_SECONDS);
      if (!login) return page(reply.code(400).header('set-cookie', clearLogin), 'No se pudo iniciar sesión', `<p>El inicio de sesión venció.</p>${again}`);
      let result;
      try {
        result = await relyingParty.finish(new URL(request.url, settings.baseUrl), { state, codeVerifier: login.codeVerifier, nonce: login.nonce });
      } catch (error) {
        request.log.warn({ error: error instanceof Error ? error.message : String(error) }, 'operator sign-in refused by the token exchange');
        return page(reply.code(400).header('set-cookie', clearLogin), 'No se pudo iniciar sesión', `<p>El proveedor de identidad no confirmó el ingreso.</p>${again}`);
      }
      if (!result.ok) {
        await appendAudit(db, { kind: 'operador.ingreso.rechazado', requestId: request.id, detail: { motivo: result.reason === 'mfa' ? 'sin segundo factor' : 'token inválido' } });
        const message = result.reason === 'mfa' ? '<p>La consola exige un segundo factor. Ingrese con su segundo factor configurado.</p>' : '<p>El proveedor de identidad no confirmó el ingreso.</p>';
        return page(reply.code(403).header('set-cookie', clearLogin), 'No se pudo iniciar sesión', `${message}${again}`);
      }
      // The provider's roles; when it carries none, those an administrator assigned here.
      const roles = result.roles.length > 0 ? result.roles : ((await assignedRoles(db, result.subject)) ?? []).filter(isRole);
      if (roles.length === 0) {
        await appendAudit(db, { kind: 'operador.ingreso.rechazado', requestId: request.id, detail: { operador: result.name, motivo: 'sin rol' } });
        return page(reply.code(403).header('set-cookie', clearLogin), 'Sin rol asignado', '<p>Su usuario no tiene un rol en la consola. Pida uno a un administrador.</p>');
      }
      const token = newSecret();
      const session = await insertSession(db, {
        tokenHash: sha256(token),
        csrfToken: newSecret(),
        subject: result.subject,
        name: result.name,
        roles,
        maxHours: settings.maxHours,
      });
      await appendAudit(db, { kind: 'operador.ingreso', requestId: request.id, detail: { operador: result.name, roles, sesion: session.id } });
      // Served as a page that moves on by itself: a cookie set during the provider's cross-site redirect chain would
      // not be sent back (SameSite=Strict) on a redirect, but is on this page's own navigation.
      return page(
        reply.header('set-cookie', [clearLogin, cookie(SESSION_COOKIE, token, `Path=/; Max-Age=${settings.maxHours * 3600}; HttpOnly; Secure; SameSite=Strict`)]),
        'Ingreso correcto',
        `<p>Bienvenido(a), ${escape(result.name)} (${escape(roles.map((role) => ROLE_LABELS[role]).join(', '))}). <a href="/operador/">Ir a la consola</a></p>`,
        '/operador/',
      );
    },
  );

  r.get('/operador/api/sesion', { schema: { response: sessionView } }, async (request, reply) => {
    const actor = await resolveActor(db, null, settings.idleMinutes, request);
    reply.header('cache-control', 'no-store');
    if (!actor || actor.kind !== 'operador') return { [RESPONSE]: { sesion: null } };
    return { [RESPONSE]: { sesion: { nombre: actor.nombre, roles: actor.roles, permisos: [...actor.permisos], csrf: actor.csrf } } };
  });

  r.post('/operador/salir', { schema: { response: done } }, async (request, reply) => {
    const actor = await resolveActor(db, null, settings.idleMinutes, request);
    if (!actor || actor.kind !== 'operador') return reply.code(401).send(errorEnvelope(RESPONSE, '400', 'No autorizado.'));
    const sent = request.headers[CSRF_HEADER];
    if (typeof sent !== 'string' || !sameSecret(sent, actor.csrf)) return reply.code(403).send(errorEnvelope(RESPONSE, '400', 'Solicitud no válida: recargue la consola.'));
    await endSession(db, actor.sessionId);
    await appendAudit(db, { kind: 'operador.salida', requestId: request.id, detail: { operador: actor.nombre, sesion: actor.sessionId } });
    return reply
      .header('set-cookie', cookie(SESSION_COOKIE, '', 'Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict'))
      .send({ [RESPONSE]: { codigo: 'OK' as const } });
  });
}
