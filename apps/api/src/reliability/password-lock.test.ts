import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, members, unknownPayerAttempts } from '../db/schema';
import { passwordLockMinutes } from '../services/password-check';
import { errorCode, listProducts, oldest, postAutentica, postSeleccionar, solveCaptcha } from '../test/member-calls';
import { DATABASE_KINDS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../test/test-app';
import { recordFigures } from './settings';

// Someone who knows only a RUT must not lock its owner out for good, nor learn from call 4 whether it is a member's.

const AUT = 'autenticaConsultaFactoresResponse';
const HOLDER = '11111111-1';
const VICTIM = '9876543-3';
/** A member who never enrolled an online password, and a RUT that is no member's. */
const NOT_ENROLLED = '7654321-6';
const STRANGER = '21212121-5';

describe('passwordLockMinutes', () => {
  it('doubles from the base for each block in a row, never past a day', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => passwordLockMinutes(n, 30))).toEqual([30, 60, 120, 240, 480, 960, 1440]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 600 }), (locks, base) => {
        const minutes = passwordLockMinutes(locks, base);
        expect(minutes).toBeLessThanOrEqual(1440);
        expect(minutes).toBeGreaterThanOrEqual(Math.min(base, 1440));
        expect(passwordLockMinutes(locks + 1, base)).toBeGreaterThanOrEqual(minutes);
      }),
    );
  });
});

describe.each(DATABASE_KINDS)('wrong passwords (%s)', (kind) => {
  let t: TestApp;
  let attacks = 0;
  beforeEach(async () => {
    t = await startTestApp(kind);
  });
  afterEach(async () => {
    recordFigures({ section: 'attacks', database: kind, faultsInjected: attacks });
    attacks = 0;
    await t.close();
  });

  /** A session of the holder with a pending transaction: the start of any login, as payer or as a third party. */
  async function pendingSession(): Promise<string> {
    const { token, productos } = await listProducts(t.app, HOLDER);
    await postSeleccionar(t.app, token, HOLDER, [oldest(productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
    return token;
  }
  const login = async (token: string, payer: string, clave: string) => errorCode(await postAutentica(t.app, token, payer, clave, await solveCaptcha(t.app)), AUT) ?? '200';
  const lockedUntil = async (rut: string) => (await t.database.db.select().from(members).where(eq(members.rut, rut)))[0]!;

  it('lifts a block by itself after PASSWORD_LOCK_MINUTES, and doubles the next one within a day', async () => {
    attacks++;
    const token = await pendingSession();
    expect([await login(token, VICTIM, 'x'), await login(token, VICTIM, 'x'), await login(token, VICTIM, 'x')]).toEqual(['45203113', '45203113', '45203016']);
    // Blocked: even the right password is refused.
    expect(await login(token, VICTIM, '1234')).toBe('45203016');
    const first = await lockedUntil(VICTIM);
    expect((first.passwordLockedUntil!.getTime() - first.passwordBlockedAt!.getTime()) / 60_000).toBeCloseTo(30, 0);

    // Half an hour later the block has lifted: the right password logs in.
    await t.database.db.update(members).set({ passwordLockedUntil: sql`now() - interval '1 second'` }).where(eq(members.rut, VICTIM));
    expect(await login(token, VICTIM, '1234')).toBe('200');

    // Blocked again within the day: the block lasts twice as long, and the count started again after the first.
    expect([await login(token, VICTIM, 'x'), await login(token, VICTIM, 'x'), await login(token, VICTIM, 'x')]).toEqual(['45203113', '45203113', '45203016']);
    const second = await lockedUntil(VICTIM);
    expect((second.passwordLockedUntil!.getTime() - second.passwordBlockedAt!.getTime()) / 60_000).toBeCloseTo(60, 0);
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'clave.bloqueada')).orderBy(sql`${auditLog.id} desc`).limit(1);
    expect(line?.detail).toMatchObject({ intentos: 3, minutos: 60 });

    // The operator's unblock still works at once.
    const res = await t.app.inject({ method: 'POST', url: `/admin/socios/${VICTIM}/desbloquear-clave`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(await login(token, VICTIM, '1234')).toBe('200');
  });

  it('answers a RUT with no online password as a member’s wrong password, blocking at the third', async () => {
    attacks++;
    const token = await pendingSession();
    for (const rut of [STRANGER, NOT_ENROLLED]) {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await login(token, rut, '1234'));
      expect(answers, rut).toEqual(['45203113', '45203113', '45203016', '45203016']);
    }
    expect(await t.database.db.$count(unknownPayerAttempts)).toBe(2);
  });

  it('takes as long for a RUT with no online password as for a member’s wrong password', async () => {
    attacks++;
    const token = await pendingSession();
    const enrolled = ['9876543-3', '15432876-9', '16789012-1', '19191919-K', '14141414-3', '12345678-5'];
    const strangers = ['21212121-5', '22222222-2', '23232323-K', '24242424-7', '25252525-4', '26262626-1'];
    const timed = async (rut: string) => {
      const captcha = await solveCaptcha(t.app);
      const started = performance.now();
      expect(errorCode(await postAutentica(t.app, token, rut, 'wrong', captcha), AUT)).toBe('45203113');
      return performance.now() - started;
    };
    const times = { member: [] as number[], stranger: [] as number[] };
    // Interleaved, two wrong passwords each (the third would block): the machine's noise falls on both alike.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < enrolled.length; i++) {
        times.member.push(await timed(enrolled[i]!));
        times.stranger.push(await timed(strangers[i]!));
      }
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    // Without the dummy hash a stranger was answered about three times faster.
    const ratio = median(times.stranger) / median(times.member);
    expect(ratio, JSON.stringify(times)).toBeGreaterThan(0.5);
    expect(ratio, JSON.stringify(times)).toBeLessThan(2);
  });
});

describe('wrong passwords are throttled per payer and client', () => {
  it('answers 514 to a client past its logins naming one payer, while other payers and clients go on', async () => {
    const t = await startTestApp('pglite', { config: { altchaCounter: { min: 10, max: 50 } }, rateLimits: { loginPerPayer: 2 } });
    try {
      const { token, productos } = await listProducts(t.app, HOLDER);
      await postSeleccionar(t.app, token, HOLDER, [oldest(productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
      const login = async (payer: string, remoteAddress = '127.0.0.1') => {
        const [rut, dv] = payer.split('-') as [string, string];
        const res = await t.app.inject({
          method: 'POST',
          url: '/prod/pago/producto/cuentavista/autentica',
          remoteAddress,
          headers: { 'content-type': 'application/json', authorization: await solveCaptcha(t.app) },
          payload: { autenticaConsultaFactoresRequest: { userId: payer, canalLlamada: 'PGEX', token, autenticacion: { rut, dv, clave: 'x' } } },
        });
        return { status: res.statusCode, codigo: errorCode(res, AUT) };
      };
      expect(await login(VICTIM)).toEqual({ status: 200, codigo: '45203113' });
      expect(await login(VICTIM)).toEqual({ status: 200, codigo: '45203113' });
      // The third guess from this client is refused before it is judged: the password is not blocked by it.
      expect(await login(VICTIM)).toEqual({ status: 429, codigo: '514' });
      expect((await t.database.db.select().from(members).where(eq(members.rut, VICTIM)))[0]!.passwordFailures).toBe(2);
      expect(await login(STRANGER)).toEqual({ status: 200, codigo: '45203113' });
    } finally {
      await t.close();
    }
  });
});
