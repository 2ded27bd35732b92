import { formatClp } from '@pago/domain/money';
import { canonicalRut, formatRut } from '@pago/domain/rut';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isSettable, type Clock } from '../../clock';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { COORDINATE_COLUMNS, COORDINATE_ROWS } from '@pago/domain/coordinate-card';
import { errorEnvelope } from '@pago/domain/envelope';
import { PROTOCOL } from '@pago/domain/call-autorizador';
import { DEMO_MEMBERS } from '@pago/domain/demo-members';
import { DEMO_OPERATORS, DEMO_OTP } from '../../operator/demo-operators';
import { ROLE_LABELS } from '../../operator/roles';
import { coordinateCardOfRut } from '../../repositories/member-repository';
import { latestMails, mailById } from '../../repositories/outbox-repository';
import { DEFAULT_RESPONSE_NAME } from '../../plugins/app/error-handler';
import { documentOf, errorResponses } from '../responses';

// The sandbox's pages, and the JSON of its authoriser app; their errors have the envelope of any answer outside a
// named call.
const errors = errorResponses(DEFAULT_RESPONSE_NAME);
const html = (description: string) => ({ response: { 200: documentOf('text/html', description), ...errors } });

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef2f5;color:#14232b}
header{background:#0b3f4a;color:#fff;padding:14px 20px;font-weight:700}main{max-width:960px;margin:0 auto;padding:20px}
h1{font-size:1.5rem;margin:0 0 12px}.card{background:#fff;border:1px solid #d5dde2;border-radius:12px;padding:20px;margin-bottom:16px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:8px;border-bottom:1px solid #e3e8ec;vertical-align:top}
th{font-size:.85rem;color:#3f5661}a{color:#0b5563}.note{color:#3f5661;font-size:.9rem}
.grid{display:grid;grid-template-columns:repeat(11,minmax(0,1fr));gap:4px;max-width:520px}.grid div{padding:6px;text-align:center;border:1px solid #d5dde2;border-radius:6px;font-variant-numeric:tabular-nums}
.grid .h{background:#0b3f4a;color:#fff;font-weight:700}label{display:block;font-weight:600;margin-bottom:4px}
input{font:inherit;padding:10px 12px;border:1px solid #73868f;border-radius:8px;width:100%;max-width:260px}
button{font:inherit;font-weight:700;padding:10px 18px;border-radius:8px;border:0;cursor:pointer;min-height:44px}
.approve{background:#0b5563;color:#fff}.reject{background:#fff;color:#8a1c1c;border:2px solid #8a1c1c}
.push{display:flex;flex-wrap:wrap;gap:12px;align-items:center;justify-content:space-between}.amount{font-size:1.4rem;font-weight:700}
.row{display:flex;gap:8px;flex-wrap:wrap;align-items:end}:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.scroll{overflow-x:auto}.wrap{white-space:pre-wrap}.plain{list-style:none;padding:0}
.secondary{background:#fff;color:#0b5563;border:2px solid #0b5563}input.code{max-width:340px;font-family:ui-monospace,monospace}.grow{flex:1 1 260px;max-width:340px}
`;

// The authoriser page is a client of the authoriser protocol (docs/authoriser.md), as the cooperative's app is: a
// non-extractable P-256 key per RUT in IndexedDB, enrolled with a one-time code, signing what it shows. Static HTML
// plus this script (no inline script: the CSP allows our own files only).
const AUTHORIZER_JS = `
const PROTOCOL = ${JSON.stringify(PROTOCOL)};
const $ = (id) => document.getElementById(id);
const status = $('status'), outcome = $('outcome'), list = $('pushes'), enrolment = $('enrol-form');
let rut = new URLSearchParams(location.search).get('rut') || '';
$('rut').value = rut;
let device = null;

function store(mode, act) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('pago-autorizador', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('dispositivos');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = act(open.result.transaction('dispositivos', mode).objectStore('dispositivos'));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    };
  });
}
const b64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/[+]/g, '-').replace(/[/]/g, '_').replace(/=+$/, '');
async function sign(key, lines) {
  const bytes = new TextEncoder().encode([PROTOCOL, ...lines].join('\\n'));
  return b64url(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, bytes));
}
async function call(path, name, body) {
  const response = await fetch('/api/autorizador/' + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ [name + 'Request']: body }) });
  const answer = (await response.json())[name + 'Response'] || {};
  const error = answer.error && answer.error.errores.detalleError;
  return error ? { error } : answer;
}
function money(n) { return '$' + String(Math.trunc(n)).replace(/\\B(?=(\\d{3})+(?!\\d))/g, '.'); }

async function useRut() {
  list.replaceChildren();
  device = rut ? await store('readonly', (s) => s.get(rut)) : null;
  enrolment.hidden = !rut || !!device;
  $('device').textContent = device ? 'Este dispositivo está enrolado para ' + rut + '.' : '';
  if (!rut) status.textContent = 'Ingresa el RUT del socio.';
  else if (!device) status.textContent = 'Este dispositivo no está enrolado para ' + rut + '.';
  else await refresh();
}
async function enrol(event) {
  event.preventDefault();
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  const fields = { codigo: $('code').value.trim(), clavePublica: b64url(await crypto.subtle.exportKey('spki', keys.publicKey)), nombre: 'Navegador del sandbox' };
  const firma = await sign(keys.privateKey, ['enrolar', 'codigo:' + fields.codigo, 'clave:' + fields.clavePublica, 'nombre:' + fields.nombre]);
  const answer = await call('enrolar', 'enrolarDispositivo', { ...fields, firma });
  if (answer.error) { outcome.textContent = answer.error.descripcion; return; }
  await store('readwrite', (s) => s.put({ dispositivo: answer.dispositivo, key: keys.privateKey }, rut));
  $('code').value = '';
  outcome.textContent = 'Dispositivo enrolado.';
  await useRut();
}
async function issueCode() {
  const response = await fetch('/sandbox/api/authorizer/enrolment-code', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rut }) });
  const body = await response.json();
  if (!response.ok) { outcome.textContent = 'Este RUT no usa el autorizador móvil.'; return; }
  $('code').value = body.codigo;
  outcome.textContent = 'Código de enrolamiento emitido.';
}
async function refresh() {
  if (!device) return;
  const fecha = new Date().toISOString();
  const firma = await sign(device.key, ['pendientes', 'dispositivo:' + device.dispositivo, 'fecha:' + fecha]);
  const answer = await call('pendientes', 'solicitudesPendientes', { dispositivo: device.dispositivo, fecha, firma });
  if (answer.error) {
    if (answer.error.codigo === '521') { await store('readwrite', (s) => s.delete(rut)); await useRut(); }
    status.textContent = answer.error.descripcion;
    return;
  }
  list.replaceChildren();
  status.textContent = answer.solicitudes.length === 0 ? 'No hay solicitudes pendientes.' : answer.solicitudes.length + ' solicitud(es) pendiente(s).';
  for (const s of answer.solicitudes) list.append(item(s));
}
function item(s) {
  const li = document.createElement('li'); li.className = 'card push';
  const text = document.createElement('div');
  const title = document.createElement('div'); title.textContent = 'Autorizar pago de ' + s.descripcion;
  const amount = document.createElement('div'); amount.className = 'amount'; amount.textContent = money(s.monto);
  const detail = document.createElement('div'); detail.className = 'note';
  detail.textContent = 'Desde la cuenta ' + s.cuenta + ' · Productos ' + s.productos.join(', ') + ' · Vence a las ' + new Date(s.expira).toLocaleTimeString('es-CL', { hour12: false });
  text.append(title, amount, detail);
  const actions = document.createElement('div'); actions.className = 'row';
  for (const [label, cls, decision] of [['Aprobar', 'approve', 'aprobar'], ['Rechazar', 'reject', 'rechazar']]) {
    const b = document.createElement('button'); b.type = 'button'; b.className = cls; b.textContent = label;
    b.addEventListener('click', async () => {
      const firma = await sign(device.key, ['decision:' + decision, 'solicitud:' + s.solicitud, 'transaccion:' + s.idTransaccion, 'monto:' + s.monto,
        'cuenta:' + s.cuenta, 'productos:' + s.productos.join(','), 'rutPagador:' + s.rutPagador, 'expira:' + s.expira, 'nonce:' + s.nonce]);
      const answer = await call('decision', 'decidirSolicitud', { dispositivo: device.dispositivo, solicitud: s.solicitud, decision, firma });
      outcome.textContent = answer.error ? answer.error.descripcion : decision === 'aprobar' ? 'Pago aprobado.' : 'Pago rechazado.';
      await refresh();
    });
    actions.append(b);
  }
  li.append(text, actions);
  return li;
}
$('rut-form').addEventListener('submit', (e) => { e.preventDefault(); rut = $('rut').value.trim(); history.replaceState(null, '', '?rut=' + encodeURIComponent(rut)); useRut(); });
$('enrol-form').addEventListener('submit', enrol);
$('issue').addEventListener('click', issueCode);
useRut(); setInterval(refresh, 2000);
`;

function page(reply: FastifyReply, title: string, body: string) {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${escape(title)} | Sandbox Pago Online</title><link rel="stylesheet" href="/sandbox/assets/sandbox.css"></head>` +
        `<body><header>Sandbox · Pago Online</header><main>${body}</main></body></html>`,
    );
}

/** Sandbox mode only: the demo members, their coordinate cards, and the mobile authoriser app. */
export async function sandboxRoutes(app: FastifyInstance, options: { clock: Clock }): Promise<void> {
  // The core simulator's page of its books (sandbox only: production refuses the simulator).
  const coreBooksUrl = `${new URL(app.config.core.baseUrl).origin}/`;
  const consoleUrl = `${app.config.operatorConsole.baseUrl}/operador/`;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Business time moves, to try or test opening hours at any hour; with the operator's token, as the admin API asks.
  // The sandbox always has one (config.ts); without it, no token matches.
  const adminDigest = createHash('sha256').update(app.config.adminToken ?? randomBytes(32).toString('hex')).digest();
  r.post(
    '/sandbox/reloj',
    {
      schema: {
        body: z.object({ instante: z.iso.datetime({ offset: true }) }).strict(),
        response: { 200: z.object({ instante: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const given = createHash('sha256').update(header.startsWith('Bearer ') ? header.slice(7) : '').digest();
      if (!timingSafeEqual(given, adminDigest)) return reply.code(401).send(errorEnvelope(DEFAULT_RESPONSE_NAME, '400', 'No autorizado.'));
      if (!isSettable(options.clock)) return reply.code(409).send(errorEnvelope(DEFAULT_RESPONSE_NAME, '400', 'El reloj de este servidor no se puede mover.'));
      options.clock.set(new Date(request.body.instante));
      return { instante: options.clock().toISOString() };
    },
  );

  r.get('/sandbox/assets/sandbox.css', { schema: { response: { 200: documentOf('text/css', 'The sandbox pages\' style'), ...errors } } }, async (_request, reply) => reply.type('text/css; charset=utf-8').send(CSS));
  r.get('/sandbox/assets/authorizer.js', { schema: { response: { 200: documentOf('text/javascript', 'The authoriser app'), ...errors } } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(AUTHORIZER_JS));

  r.get('/sandbox', { schema: html('The demo members') }, async (_request, reply) => {
    const operators = DEMO_OPERATORS.map((o) => `<tr><td>${escape(o.usuario)}</td><td>${escape(o.nombre)}</td><td>${escape(o.roles.map((role) => ROLE_LABELS[role]).join(', '))}</td><td>${escape(o.clave)}</td></tr>`).join('');
    const rows = DEMO_MEMBERS.map((m) => {
      const factors = m.factors.length ? m.factors.map((f) => (f === 1 ? 'tarjeta de coordenadas' : 'autorizador móvil, una vez enrolado')).join(' y ') : '—';
      const links = [
        m.factors.includes(1) ? `<a href="/sandbox/coordinates?rut=${encodeURIComponent(m.rut)}">Tarjeta</a>` : '',
        m.factors.includes(2) ? `<a href="/sandbox/authorizer?rut=${encodeURIComponent(m.rut)}">Autorizador</a>` : '',
      ].filter(Boolean);
      return `<tr><td>${escape(formatRut(m.rut))}</td><td>${escape(m.scenario)}</td><td>${m.password ? (m.password.blocked ? 'bloqueada' : escape(m.password.plain)) : '—'}</td>` +
        `<td>${m.account ? escape(formatClp(m.account.saldo)) : '—'}</td><td>${escape(factors)}</td><td>${links.join(' · ')}</td></tr>`;
    }).join('');
    return page(
      reply,
      'Socios de demostración',
      `<h1>Socios de demostración</h1><p class="note">Saldos iniciales. El core bancario (su simulador) lleva los saldos y cada pago que registra: <a href="${escape(coreBooksUrl)}">libros del core</a>.</p>` +
        `<div class="card scroll"><table><thead><tr><th>RUT</th><th>Escenario</th><th>Clave</th><th>Cuenta vista</th><th>Factores</th><th></th></tr></thead><tbody>${rows}</tbody></table></div>` +
        `<h2>Operadores de demostración</h2><p class="note">Ingresan a la <a href="${escape(consoleUrl)}">consola de operadores</a> en el proveedor de identidad del sandbox. Código de verificación (segundo factor): <strong>${DEMO_OTP}</strong>.</p>` +
        `<div class="card scroll"><table><thead><tr><th>Usuario</th><th>Nombre</th><th>Rol</th><th>Clave</th></tr></thead><tbody>${operators}</tbody></table></div>` +
        `<p><a href="/sandbox/authorizer">Autorizador móvil</a> · <a href="${escape(coreBooksUrl)}">Libros del core bancario</a> · <a href="/">Ir a Pago Online</a></p>`,
    );
  });

  r.get(
    '/sandbox/coordinates',
    {
      schema: {
        querystring: z.object({ rut: z.string().max(16) }),
        response: { 200: documentOf('text/html', 'A demo member\'s coordinate card'), 404: documentOf('text/html', 'No card for this RUT'), ...errors },
      },
    },
    async (request, reply) => {
      const rut = canonicalRut(request.query.rut);
      const card = rut ? await coordinateCardOfRut(app.database.db, rut) : null;
      if (!rut || !card) return page(reply.code(404), 'Tarjeta de coordenadas', '<h1>Tarjeta de coordenadas</h1><p>Este RUT no tiene tarjeta de coordenadas.</p>');
      const header = `<div class="h"></div>${COORDINATE_COLUMNS.map((c) => `<div class="h">${c}</div>`).join('')}`;
      const rows = COORDINATE_ROWS.map((row) => `<div class="h">${row}</div>${COORDINATE_COLUMNS.map((c) => `<div>${escape(card.cells[`${c}${row}`] ?? '')}</div>`).join('')}`).join('');
      return page(
        reply,
        'Tarjeta de coordenadas',
        `<h1>Tarjeta de coordenadas de ${escape(formatRut(rut))}</h1>${card.blockedAt ? '<p><strong>Tarjeta bloqueada.</strong></p>' : ''}` +
          `<div class="card"><div class="grid" role="table" aria-label="Tarjeta de coordenadas">${header}${rows}</div></div>`,
      );
    },
  );

  r.get('/sandbox/outbox', { schema: html('The e-mails sent without SMTP_URL') }, async (_request, reply) => {
    const mails = await latestMails(app.database.db, 50);
    const items = mails
      .map(
        (m) =>
          `<li class="card"><div><strong>${escape(m.subject)}</strong></div><div class="note">Para ${escape(m.to)} · ${escape(m.createdAt.toISOString())}</div>` +
          `<pre class="wrap">${escape(m.text)}</pre>` +
          m.attachments.map((a, i) => `<a href="/sandbox/outbox/${m.id}/attachments/${i}">${escape(a.filename)}</a>`).join(' ') +
          `</li>`,
      )
      .join('');
    return page(
      reply,
      'Correos enviados',
      `<h1>Correos enviados</h1><p class="note">Sin SMTP_URL, los correos a los socios (comprobantes y avisos) quedan aquí.</p>` +
        (items ? `<ul class="plain">${items}</ul>` : '<p>No hay correos.</p>'),
    );
  });

  r.get(
    '/sandbox/outbox/:id/attachments/:index',
    {
      schema: {
        params: z.object({ id: z.uuid(), index: z.coerce.number().int().min(0).max(20) }),
        response: { 200: documentOf('application/octet-stream', 'The attachment, with its own media type'), ...errors },
      },
    },
    async (request, reply) => {
      const mail = await mailById(app.database.db, request.params.id);
      const attachment = mail?.attachments[request.params.index];
      if (!attachment) return reply.code(404).send(errorEnvelope(DEFAULT_RESPONSE_NAME, '400', 'Adjunto no encontrado.'));
      return reply
        .type(attachment.contentType)
        .header('content-disposition', `attachment; filename="${attachment.filename.replace(/"/g, '')}"`)
        .send(Buffer.from(attachment.base64, 'base64'));
    },
  );

  // Stand-ins for the cooperative's own pages, where the member's screens link by default (PRODUCT_SITE_URL,
  // PRODUCT_PASSWORD_RECOVERY_URL): each says what the real page does.
  r.get('/sandbox/sitio', { schema: html("The cooperative's site, as a stand-in") }, async (_request, reply) =>
    page(
      reply,
      `Sitio de ${app.config.productName}`,
      `<h1>Sitio de ${escape(app.config.productName)}</h1><p class="note">Página de ejemplo del sandbox.</p>` +
        `<div class="card"><p>Aquí está el sitio de la cooperativa: '&lt; Volver a ${escape(app.config.productName)}' lleva al socio a su portada. ` +
        `Una instalación real configura su dirección en <code>PRODUCT_SITE_URL</code>.</p></div>` +
        `<p><a href="/">Ir a Pago Online</a></p>`,
    ),
  );
  r.get('/sandbox/sitio/recuperar-clave', { schema: html("The cooperative's password recovery, as a stand-in") }, async (_request, reply) =>
    page(
      reply,
      'Recuperar clave de internet',
      `<h1>Recuperar clave de internet</h1><p class="note">Página de ejemplo del sandbox.</p>` +
        `<div class="card"><p>Aquí el socio con su clave bloqueada la recupera en el sitio de la cooperativa: confirma su identidad y crea una clave nueva. ` +
        `Pago Online no guarda ni cambia claves. Una instalación real configura esta dirección en <code>PRODUCT_PASSWORD_RECOVERY_URL</code>.</p></div>` +
        `<p><a href="/">Ir a Pago Online</a></p>`,
    ),
  );

  r.get('/sandbox/authorizer', { schema: html('The mobile authoriser app') }, async (_request, reply) =>
    page(
      reply,
      'Autorizador móvil',
      `<h1>Autorizador móvil</h1><p class="note">Simula la app del socio: este navegador guarda una llave que no sale de él, se enrola con un código de un solo uso y firma cada aprobación.</p>` +
        `<form id="rut-form" class="card row"><div><label for="rut">RUT</label><input id="rut" name="rut" autocomplete="off" placeholder="12345678-9"></div><button class="approve" type="submit">Usar este RUT</button></form>` +
        `<p id="device" class="note"></p>` +
        `<form id="enrol-form" class="card" hidden><div><p>En la cooperativa, el código llega al socio por carta o se lo entrega un ejecutivo; aquí el sandbox lo emite.</p>` +
        `<p><button type="button" id="issue" class="secondary">Obtener código de enrolamiento</button></p>` +
        `<div class="row"><div class="grow"><label for="code">Código de enrolamiento</label><input id="code" name="code" class="code" autocomplete="off" spellcheck="false"></div><button class="approve" type="submit">Enrolar este dispositivo</button></div></div></form>` +
        `<p id="outcome" role="status" aria-live="polite"></p><p id="status" class="note"></p><ul id="pushes" class="plain"></ul>` +
        `<script type="module" src="/sandbox/assets/authorizer.js"></script>`,
    ),
  );

  // The sandbox stands in for the operator (or the nightly load) who gives a demo member an enrolment code.
  r.post(
    '/sandbox/api/authorizer/enrolment-code',
    {
      schema: {
        body: z.object({ rut: z.string().max(16) }).strict(),
        response: { 200: z.object({ codigo: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const rut = canonicalRut(request.body.rut);
      const demo = rut ? DEMO_MEMBERS.find((m) => m.rut === rut && m.factors.includes(2)) : undefined;
      const issued = demo ? await app.services.authoriser.issueEnrolmentCode(demo.rut, 'sandbox', request.id) : null;
      if (!issued) return reply.code(404).send(errorEnvelope(DEFAULT_RESPONSE_NAME, '400', 'Socio de demostración sin autorizador móvil.'));
      return { codigo: issued.codigo };
    },
  );
}
