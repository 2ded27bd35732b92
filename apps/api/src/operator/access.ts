import { canonicalRut, maskRut } from '@pago/domain/rut';
import { errorEnvelope } from '@pago/domain/envelope';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client';
import { allLimits } from '../plugins/external/rate-limit';
import { appendAudit, auditActor } from '../repositories/audit-repository';
import { touchSession, useMachineToken } from '../repositories/operator-repository';
import { isPermission, isRole, permissionsOf, PERMISSIONS, type Permission, type Role } from './roles';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the caller must be allowed to do (operator/roles.ts); an operator route without one is refused to all. */
    permiso?: Permission;
  }
  interface FastifyRequest {
    /** Who is calling the operator's API, once access.ts let the call through. */
    actor?: Actor;
  }
}

/**
 * Who is calling. `persona` is the person answerable for the call: the operator's subject at the identity provider,
 * or, for a machine token, the subject of the person who asked for it (four eyes compare people, never tokens).
 */
export type Actor =
  | { kind: 'operador'; id: string; persona: string; nombre: string; roles: Role[]; permisos: ReadonlySet<Permission>; sessionId: string; csrf: string }
  | { kind: 'maquina'; id: string; persona: string; nombre: string; emisor: string; permisos: ReadonlySet<Permission>; bootstrap: boolean };

/** How the audit trail names who did it: the operator's name, or the machine token's with the person it acts for. */
export const actorLabel = (actor: Actor) => (actor.kind === 'operador' ? actor.nombre : actor.bootstrap ? `token ${actor.nombre}` : `token ${actor.nombre} (${actor.emisor})`);

/** The person behind a machine token: its issuer's subject, or the token itself when the CLI wrote it. */
export const tokenPersona = (row: { id: string; issuerSubject: string | null }) => row.issuerSubject ?? `token:${row.id}`;

export const SESSION_COOKIE = 'operador_sesion';
export const CSRF_HEADER = 'x-csrf-token';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const digest = (value: string) => createHash('sha256').update(value).digest();
export const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** A fresh secret for a cookie or a machine token: 32 random bytes, base64url. */
export const newSecret = (prefix = '') => `${prefix}${randomBytes(32).toString('base64url')}`;

export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      // A malformed escape (a forged cookie) is no cookie, not a failure.
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who is calling, from a machine's bearer token (the bootstrap ADMIN_TOKEN or an issued one) or an operator's
 * session cookie; null when neither is valid.
 */
export async function resolveActor(db: Db, bootstrapToken: string | null, idleMinutes: number, request: FastifyRequest): Promise<Actor | null> {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token) return null;
    // Compared by digest, so the check takes the same time whatever the guess's length or prefix.
    if (bootstrapToken && sameSecret(token, bootstrapToken)) {
      return { kind: 'maquina', id: 'ADMIN_TOKEN', persona: 'ADMIN_TOKEN', nombre: 'ADMIN_TOKEN', emisor: 'ADMIN_TOKEN', permisos: new Set(PERMISSIONS), bootstrap: true };
    }
    const row = await useMachineToken(db, sha256(token));
    if (!row) return null;
    return { kind: 'maquina', id: row.id, persona: tokenPersona(row), nombre: row.name, emisor: row.createdBy, permisos: new Set(row.scopes.filter(isPermission)), bootstrap: false };
  }
  const cookie = cookieOf(request, SESSION_COOKIE);
  if (!cookie) return null;
  const session = await touchSession(db, sha256(cookie), idleMinutes);
  if (!session) return null;
  const roles = session.roles.filter(isRole);
  return { kind: 'operador', id: session.subject, persona: session.subject, nombre: session.name, roles, permisos: permissionsOf(roles), sessionId: session.id, csrf: session.csrfToken };
}

/** Every operator route with its permission (the role matrix's test walks them all). */
export const OPERATOR_ROUTES = new Map<string, { method: string; url: string; permiso: Permission }>();

export interface AccessOptions {
  /** The envelope's name of a route that names none. */
  responseName: string;
  /** The origin the console is served from: a state-changing call from any other is refused. */
  consoleOrigin: string;
}

/**
 * The operator API's gate (every route under it): 401 without a valid token or session, 403 for a session's
 * state-changing call without its CSRF token (or from another origin), 403 for a permission the caller lacks.
 * Wrong tokens count per address (429 past RATE_LIMIT_ADMIN_PER_IP); the right one is never refused for them.
 */
export function registerAccess(app: FastifyInstance, options: AccessOptions): void {
  // Fail closed at boot: an operator route that names no permission stops the app instead of answering 403 forever.
  app.addHook('onRoute', (route) => {
    const permiso = route.config?.permiso;
    if (!permiso) throw new Error(`operator route ${String(route.method)} ${route.url} names no permission`);
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method !== 'HEAD') OPERATOR_ROUTES.set(`${method} ${route.url}`, { method, url: route.url, permiso });
    }
  });

  const db = app.database.db;
  const { adminToken } = app.config;
  const idleMinutes = app.config.operatorConsole.idleMinutes;
  const wrongTokens = allLimits(app.createRateLimit({ max: app.config.rateLimits.adminPerIp, timeWindow: 60_000, keyGenerator: (request) => `admin-wrong:${request.client}` }));
  // A refused call is evidence too: the trail keeps who was refused what, and why (wrong tokens only up to their limit).
  const refuse = async (request: FastifyRequest, reply: FastifyReply, status: 401 | 403, message: string, motivo: string, actor: Actor | null) => {
    await appendAudit(db, {
      kind: 'operador.acceso.rechazado',
      requestId: request.id,
      detail: { motivo, metodo: request.method, ruta: request.routeOptions.url ?? '', cliente: request.client, ...(actor ? { operador: actorLabel(actor) } : {}) },
    });
    return reply.code(status).send(errorEnvelope(request.routeOptions.config?.responseName ?? options.responseName, '400', message));
  };

  // The request runs inside its own audit context; the check below names the actor in it.
  app.addHook('onRequest', (_request, _reply, done) => auditActor.run({}, done));
  app.addHook('onRequest', async (request, reply) => {
    const actor = await resolveActor(db, adminToken, idleMinutes, request);
    if (!actor) {
      // Past the limit: 429 (514) with Retry-After, and no log line per guess.
      await wrongTokens(request, reply);
      if (reply.sent) return reply;
      request.log.warn('operator call refused: no valid token or session');
      return refuse(request, reply, 401, 'No autorizado.', 'sin token ni sesión válidos', null);
    }
    if (actor.kind === 'operador' && !SAFE_METHODS.has(request.method)) {
      const sent = request.headers[CSRF_HEADER];
      const origin = request.headers.origin;
      if (typeof sent !== 'string' || !sameSecret(sent, actor.csrf) || (origin !== undefined && origin !== options.consoleOrigin)) {
        request.log.warn({ sesion: actor.sessionId }, 'operator call refused: CSRF token missing or wrong');
        return refuse(request, reply, 403, 'Solicitud no válida: recargue la consola.', 'CSRF', actor);
      }
    }
    const needed = request.routeOptions.config?.permiso;
    if (!needed || !actor.permisos.has(needed)) {
      request.log.warn({ permiso: needed ?? null, actor: actor.kind }, 'operator call refused: permission missing');
      return refuse(request, reply, 403, 'Su rol no permite esta acción.', `sin permiso ${needed ?? ''}`.trim(), actor);
    }
    request.actor = actor;
    const context = auditActor.getStore();
    if (context) context.operador = actorLabel(actor);
  });

  // Looking a member up leaves a line too (what changes something writes its own, naming the actor).
  app.addHook('preHandler', async (request) => {
    if (request.actor && request.method === 'GET' && request.routeOptions.config?.permiso === 'socios.ver') {
      const rut = canonicalRut(String((request.params as { rut?: unknown }).rut ?? ''));
      await appendAudit(db, { kind: 'operador.consulta', rutMasked: rut ? maskRut(rut) : null, requestId: request.id, detail: { ruta: request.routeOptions.url ?? '' } });
    }
  });
}
