import {
  DECISION_PATH,
  DECISION_RESPONSE,
  ENROLAR_PATH,
  ENROLAR_RESPONSE,
  PENDIENTES_PATH,
  PENDIENTES_RESPONSE,
} from '@pago/domain/call-autorizador';
import { webhookBodySchema } from '@pago/domain/schemas/call-autorizador';
import { and, desc, eq, sql } from 'drizzle-orm';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, authoriserDevices, authoriserWebhooks, authorizations, members } from '../../db/schema';
import { webhookSignature } from '../../services/authoriser-webhook';
import { AuthoriserDevice } from '../../../test/support/authoriser-device';
import {
  deviceDecides,
  devicePending,
  enrolDevice,
  errorCode,
  listProducts,
  oldest,
  postAutentica,
  postAutorizar,
  postPagar,
  postSeleccionar,
} from '../../../test/support/member-calls';
import { appPerTest, DATABASE_KINDS, startTestApp, TEST_ADMIN_TOKEN } from '../../../test/support/test-app';

const PAG = 'pagarProductoCVResponse';
const RUT = '14141414-3';
const json = { 'content-type': 'application/json' };
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe.each(DATABASE_KINDS)('the mobile authoriser protocol on %s', (kind) => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest(kind);

  const send = async (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers: json, payload: payload as object });
  const balance = async (rut: string) =>
    (await t.database.db.select({ saldo: accounts.saldo }).from(accounts).innerJoin(members, eq(members.id, accounts.memberId)).where(eq(members.rut, rut)))[0]!.saldo;
  const refusals = async () =>
    (await t.database.db.select({ detail: auditLog.detail }).from(auditLog).where(eq(auditLog.kind, 'autorizador.rechazo')).orderBy(auditLog.id)).map((r) => (r.detail as { motivo: string }).motivo);
  const issueCode = async (rut = RUT) => (await t.app.services.authoriser.issueEnrolmentCode(rut, 'operador', 'test'))!.codigo;

  /** The member's payment waiting on the authoriser: the session and its call 6. */
  async function pushFor(rut = RUT) {
    const { token, productos } = await listProducts(t.app, rut);
    await postSeleccionar(t.app, token, rut, [oldest(productos.find((p) => p.tipoFamiliaProducto === 'PM')!, 1)]);
    const login = await postAutentica(t.app, token, rut, '1234');
    const numeroCuenta = login.json().autenticaConsultaFactoresResponse.numeroCuenta as string;
    expect(errorCode(await postAutorizar(t.app, token, rut, rut, 2), 'autorizarPagoProductoCVResponse')).toBeUndefined();
    return { pay: () => postPagar(t.app, { token, rutTitular: rut, rutPago: rut, numeroCuenta, factor: 2 }) };
  }

  describe('enrolment', () => {
    it('registers a device once per code, and a newer device revokes the older', async () => {
      const code = await issueCode();
      const first = await AuthoriserDevice.create();
      const enrolled = await send(ENROLAR_PATH, await first.enrolment(code));
      expect(enrolled.json()[ENROLAR_RESPONSE]).toMatchObject({ codigo: '200', dispositivo: expect.any(String) });
      first.dispositivo = enrolled.json()[ENROLAR_RESPONSE].dispositivo;
      // The code was spent: not even the same device enrols with it again, spelled otherwise.
      expect(errorCode(await send(ENROLAR_PATH, await first.enrolment(code.toLowerCase().replaceAll('-', ' '))), ENROLAR_RESPONSE)).toBe('520');

      const second = await enrolDevice(t.app, RUT);
      expect(errorCode(await send(PENDIENTES_PATH, await first.pendingRequest()), PENDIENTES_RESPONSE)).toBe('521');
      expect(await devicePending(t.app, second)).toEqual([]);
      const listed = await t.app.inject({ method: 'GET', url: `/admin/socios/${RUT}/autorizador/dispositivos`, headers: admin });
      const dispositivos = listed.json().operacionesResponse.dispositivos as { id: string; revocado: string | null }[];
      expect(dispositivos.map((d) => [d.id, d.revocado === null])).toEqual([
        [second.dispositivo, true],
        [first.dispositivo, false],
      ]);
      expect(listed.body).not.toContain(first.clavePublica);
    });

    it('refuses an unknown or expired code, and a code signed by another key without spending it', async () => {
      const device = await AuthoriserDevice.create();
      expect(errorCode(await send(ENROLAR_PATH, await device.enrolment('ABCD-EFGH-IJKL-MNOP-QRST')), ENROLAR_RESPONSE)).toBe('520');

      const code = await issueCode();
      const intruder = await AuthoriserDevice.create();
      const forged = await device.enrolment(code);
      forged.enrolarDispositivoRequest.firma = (await intruder.enrolment(code)).enrolarDispositivoRequest.firma;
      expect(errorCode(await send(ENROLAR_PATH, forged), ENROLAR_RESPONSE)).toBe('520');
      // Still usable by the device whose key it registers.
      expect(errorCode(await send(ENROLAR_PATH, await device.enrolment(code)), ENROLAR_RESPONSE)).toBeUndefined();

      const late = await issueCode();
      await t.database.db.execute(sql`update authoriser_enrolment_codes set expires_at = now() - interval '1 second' where used_at is null`);
      expect(errorCode(await send(ENROLAR_PATH, await (await AuthoriserDevice.create()).enrolment(late)), ENROLAR_RESPONSE)).toBe('520');
      expect(await refusals()).toEqual(['código inválido', 'firma de enrolamiento inválida', 'código inválido']);
    });

    it('answers 400 to a key that is not an ECDSA P-256 key, and to a name with a line break', async () => {
      const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64url');
      const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64url');
      const body = (await (await AuthoriserDevice.create()).enrolment(await issueCode())).enrolarDispositivoRequest;
      for (const clavePublica of [p384, 'AAAA']) {
        const res = await send(ENROLAR_PATH, { enrolarDispositivoRequest: { ...body, clavePublica } });
        expect(res.statusCode, clavePublica.slice(0, 8)).toBe(400);
        expect(errorCode(res, ENROLAR_RESPONSE)).toBe('400');
      }
      expect((await send(ENROLAR_PATH, { enrolarDispositivoRequest: { ...body, clavePublica: rsa } })).statusCode).toBe(400);
      expect((await send(ENROLAR_PATH, { enrolarDispositivoRequest: { ...body, nombre: 'Mi\nteléfono' } })).statusCode).toBe(400);
      // Nothing was enrolled, and the code is still there for the right request.
      expect(await t.database.db.$count(authoriserDevices)).toBe(0);
      expect(errorCode(await send(ENROLAR_PATH, { enrolarDispositivoRequest: body }), ENROLAR_RESPONSE)).toBeUndefined();
    });

    it('issues codes through the admin API', async () => {
      const issued = await t.app.inject({ method: 'POST', url: `/admin/socios/${RUT}/autorizador/codigo`, headers: admin });
      expect(issued.json().operacionesResponse).toMatchObject({ codigo: expect.stringMatching(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){4}$/), vigenciaDias: 7 });
      expect((await t.app.inject({ method: 'POST', url: '/admin/socios/1-9/autorizador/codigo', headers: admin })).statusCode).toBe(404);
      const device = await AuthoriserDevice.create();
      expect(errorCode(await send(ENROLAR_PATH, await device.enrolment(issued.json().operacionesResponse.codigo)), ENROLAR_RESPONSE)).toBeUndefined();
    });
  });

  describe('pending requests', () => {
    it('shows a device its member’s pushes only when signed by it, within two minutes of the server’s clock', async () => {
      const device = await enrolDevice(t.app, RUT);
      await pushFor();
      expect(await devicePending(t.app, device)).toHaveLength(1);

      const stale = await device.pendingRequest(new Date(Date.now() - 5 * 60_000).toISOString());
      expect(errorCode(await send(PENDIENTES_PATH, stale), PENDIENTES_RESPONSE)).toBe('522');
      const forged = await device.pendingRequest();
      forged.solicitudesPendientesRequest.firma = (await (await AuthoriserDevice.create()).sign('x')).toString();
      expect(errorCode(await send(PENDIENTES_PATH, forged), PENDIENTES_RESPONSE)).toBe('522');
      const unknown = await device.pendingRequest();
      unknown.solicitudesPendientesRequest.dispositivo = crypto.randomUUID();
      expect(errorCode(await send(PENDIENTES_PATH, unknown), PENDIENTES_RESPONSE)).toBe('521');
      expect(await refusals()).toEqual(['fecha fuera de plazo', 'firma inválida', 'dispositivo desconocido']);
    });
  });

  describe('decisions', () => {
    it('pays on an approval signed over exactly what was shown, once', async () => {
      const device = await enrolDevice(t.app, RUT);
      const before = await balance(RUT);
      const { pay } = await pushFor();
      const [push] = await devicePending(t.app, device);
      const approval = await device.decision(push!, 'aprobar');
      expect((await send(DECISION_PATH, approval)).json()[DECISION_RESPONSE]).toEqual({ codigo: '200', decision: 'aprobar' });
      expect(errorCode(await pay(), PAG)).toBeUndefined();
      expect(await balance(RUT)).toBe(before - push!.monto);
      // The same approval again is a replay: refused, and nothing more is paid.
      expect(errorCode(await send(DECISION_PATH, approval), DECISION_RESPONSE)).toBe('523');
      expect(errorCode(await pay(), PAG)).toBeUndefined();
      expect(await balance(RUT)).toBe(before - push!.monto);
      const [decided] = await t.database.db.select().from(authorizations).where(eq(authorizations.id, push!.solicitud));
      expect(decided).toMatchObject({ status: 'used', deviceId: device.dispositivo, signature: approval.decidirSolicitudRequest.firma });
    });

    it('refuses and audits a signature over another amount, transaction, account, nonce or decision; the push stays pending', async () => {
      const device = await enrolDevice(t.app, RUT);
      const { pay } = await pushFor();
      const [push] = await devicePending(t.app, device);
      const others = [{ monto: push!.monto - 1 }, { idTransaccion: 'f'.repeat(32) }, { cuenta: '****0000' }, { productos: ['****9999'] }, { nonce: 'A'.repeat(43) }, { expira: new Date(Date.now() + 3_600_000).toISOString() }];
      for (const signed of others) expect(errorCode(await send(DECISION_PATH, await device.decision(push!, 'aprobar', signed)), DECISION_RESPONSE), JSON.stringify(signed)).toBe('522');
      // Signed as a rejection, sent as an approval.
      expect(errorCode(await send(DECISION_PATH, await device.decision(push!, 'aprobar', { decision: 'rechazar' })), DECISION_RESPONSE)).toBe('522');
      expect(await refusals()).toEqual(Array(others.length + 1).fill('firma inválida'));
      expect(errorCode(await pay(), PAG)).toBe('25');
      // An approval of an earlier push (its nonce, its transaction) does not fit a later one.
      const earlier = await device.decision(push!, 'aprobar');
      const next = await pushFor();
      const later = (await devicePending(t.app, device)).find((s) => s.solicitud !== push!.solicitud);
      const replayed = { decidirSolicitudRequest: { ...earlier.decidirSolicitudRequest, solicitud: later!.solicitud } };
      expect(errorCode(await send(DECISION_PATH, replayed), DECISION_RESPONSE)).toBe('522');
      expect(errorCode(await next.pay(), PAG)).toBe('25');
    });

    it('refuses an expired push, another member’s, and a revoked device’s', async () => {
      const device = await enrolDevice(t.app, RUT);
      const other = await enrolDevice(t.app, '11111111-1');
      await pushFor();
      const [push] = await devicePending(t.app, device);
      expect(errorCode(await send(DECISION_PATH, await other.decision(push!, 'aprobar')), DECISION_RESPONSE)).toBe('523');
      await t.database.db.update(authorizations).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(authorizations.id, push!.solicitud));
      expect(errorCode(await send(DECISION_PATH, await device.decision(push!, 'aprobar')), DECISION_RESPONSE)).toBe('523');
      const revoked = await t.app.inject({ method: 'POST', url: `/admin/autorizador/dispositivos/${device.dispositivo}/revocar`, headers: admin });
      expect(revoked.json().operacionesResponse).toEqual({ codigo: '200' });
      expect((await t.app.inject({ method: 'POST', url: `/admin/autorizador/dispositivos/${device.dispositivo}/revocar`, headers: admin })).statusCode).toBe(404);
      expect(errorCode(await send(DECISION_PATH, await device.decision(push!, 'aprobar')), DECISION_RESPONSE)).toBe('521');
      expect(await refusals()).toEqual(['solicitud de otro socio o desconocida', 'solicitud vencida', 'dispositivo revocado']);
    });

    it('pays nothing on an approval whose device is revoked before call 6, nor on a push whose device is gone', async () => {
      const device = await enrolDevice(t.app, RUT);
      const before = await balance(RUT);
      const approved = await pushFor();
      const [push] = await devicePending(t.app, device);
      await deviceDecides(t.app, device, push!, 'aprobar');
      await t.app.services.authoriser.revoke(device.dispositivo!, 'test');
      expect(errorCode(await approved.pay(), PAG)).toBe('7');
      expect(errorCode(await approved.pay(), PAG)).toBe('485');

      const again = await enrolDevice(t.app, RUT);
      const waiting = await pushFor();
      expect(errorCode(await waiting.pay(), PAG)).toBe('25');
      await t.app.services.authoriser.revoke(again.dispositivo!, 'test');
      expect(errorCode(await waiting.pay(), PAG)).toBe('7');
      expect(await balance(RUT)).toBe(before);
      // With no device left, call 4 no longer offers the authoriser, and call 5 says it is blocked.
      const { token, productos } = await listProducts(t.app, RUT);
      await postSeleccionar(t.app, token, RUT, [oldest(productos[0]!, 1)]);
      expect((await postAutentica(t.app, token, RUT, '1234')).json().autenticaConsultaFactoresResponse.factores).toEqual([]);
      expect(errorCode(await postAutorizar(t.app, token, RUT, RUT, 2), 'autorizarPagoProductoCVResponse')).toBe('7');
    });
  });

  it('answers 5203004 to a member who never enrolled a device', async () => {
    const { token, productos } = await listProducts(t.app, RUT);
    await postSeleccionar(t.app, token, RUT, [oldest(productos[0]!, 1)]);
    expect((await postAutentica(t.app, token, RUT, '1234')).json().autenticaConsultaFactoresResponse.factores).toEqual([]);
    expect(errorCode(await postAutorizar(t.app, token, RUT, RUT, 2), 'autorizarPagoProductoCVResponse')).toBe('5203004');
  });
});

describe('the authoriser webhook', () => {
  let hook: Server;
  let url: string;
  const received: { body: string; headers: IncomingMessage['headers'] }[] = [];
  let failFirst = 0;
  beforeAll(async () => {
    hook = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ body, headers: request.headers });
        response.statusCode = failFirst-- > 0 ? 503 : 204;
        response.end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/push`;
  });
  afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())));

  it('posts each push signed with HMAC-SHA256, retried until the backend answers, without amount or RUT', async () => {
    const secret = 's'.repeat(32);
    const t = await startTestApp('pglite', { config: { authoriser: { webhook: { url, secret }, enrolmentCodeDays: 7 } } });
    try {
      const device = await enrolDevice(t.app, RUT);
      failFirst = 1;
      const { token, productos } = await listProducts(t.app, RUT);
      await postSeleccionar(t.app, token, RUT, [oldest(productos[0]!, 1)]);
      await postAutentica(t.app, token, RUT, '1234');
      await postAutorizar(t.app, token, RUT, RUT, 2);

      expect(await t.app.services.authoriserWebhook.deliverDue()).toEqual({ delivered: 0, failed: 1 });
      const [row] = await t.database.db.select().from(authoriserWebhooks);
      expect(row).toMatchObject({ attempts: 1, lastError: 'HTTP 503', deliveredAt: null });
      // Not again before its back-off.
      expect(await t.app.services.authoriserWebhook.deliverDue()).toEqual({ delivered: 0, failed: 0 });
      await t.database.db.update(authoriserWebhooks).set({ nextAttemptAt: sql`now()` });
      expect(await t.app.services.authoriserWebhook.deliverDue()).toEqual({ delivered: 1, failed: 0 });

      expect(received).toHaveLength(2);
      const last = received.at(-1)!;
      // Only what wakes the phone: no amount, account or RUT.
      const body: unknown = JSON.parse(last.body);
      expect(webhookBodySchema.safeParse(body).success).toBe(true);
      const [push] = await t.database.db.select().from(authorizations).where(and(eq(authorizations.factor, 2))).orderBy(desc(authorizations.createdAt)).limit(1);
      expect(body).toEqual({ evento: 'solicitud', dispositivo: device.dispositivo, solicitud: push!.id, expira: push!.expiresAt.toISOString() });
      expect(last.headers['x-autorizador-firma']).toBe(webhookSignature(secret, String(last.headers['x-autorizador-fecha']), last.body));
      expect(Math.abs(Number(last.headers['x-autorizador-fecha']) - Date.now() / 1000)).toBeLessThan(60);
      expect(await t.app.services.authoriserWebhook.deliverDue()).toEqual({ delivered: 0, failed: 0 });
    } finally {
      await t.close();
    }
  });
});
