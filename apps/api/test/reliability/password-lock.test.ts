import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, members, outbox, passwordClientGuards, unknownPayerAttempts } from '../../src/db/schema';
import { BLOCKED_PASSWORD_MESSAGE, ERROR_CATALOGUE, LAST_PASSWORD_ATTEMPT_MESSAGE } from '@pago/domain/errors';
import { readError } from '@pago/domain/envelope';
import { passwordLockMinutes } from '../../src/services/password-check';
import { errorCode, listProducts, oldest, postAutentica, postSeleccionar, solveCaptcha } from '../support/member-calls';
import { DATABASE_KINDS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
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
  /** The block of `rut` on the tests' one client (decision 032: three wrong passwords block the payer on that client). */
  const lockedUntil = async (rut: string) => (await t.database.db.select().from(passwordClientGuards).where(eq(passwordClientGuards.rut, rut)))[0]!;

  it('lifts a block by itself after PASSWORD_LOCK_MINUTES, and doubles the next one within a day', async () => {
    attacks++;
    const token = await pendingSession();
    expect([await login(token, VICTIM, 'x'), await login(token, VICTIM, 'x'), await login(token, VICTIM, 'x')]).toEqual(['45203113', '45203113', '45203016']);
    // Blocked: even the right password is refused.
    expect(await login(token, VICTIM, '1234')).toBe('45203016');
    const first = await lockedUntil(VICTIM);
    expect((first.passwordLockedUntil!.getTime() - first.passwordBlockedAt!.getTime()) / 60_000).toBeCloseTo(30, 0);

    // Half an hour later the block has lifted: the right password logs in.
    await t.database.db.update(passwordClientGuards).set({ passwordLockedUntil: sql`now() - interval '1 second'` }).where(eq(passwordClientGuards.rut, VICTIM));
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

describe.each(DATABASE_KINDS)('strangers guessing from many clients (%s)', (kind) => {
  let t: TestApp;
  afterEach(async () => {
    recordFigures({ section: 'attacks', database: kind, faultsInjected: 1 });
    await t.close();
  });

  async function start(options: Parameters<typeof startTestApp>[1] = {}) {
    t = await startTestApp(kind, options);
    const { token, productos } = await listProducts(t.app, HOLDER);
    await postSeleccionar(t.app, token, HOLDER, [oldest(productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
    return token;
  }
  /**
   * Call 4 from one client (address), its captcha's challenge asked from the same address unless `captchaFrom` says
   * otherwise: the answer's code, '200' for a login, '429' when the client is refused.
   */
  const login = async (token: string, payer: string, clave: string, remoteAddress: string, captchaFrom = remoteAddress) => {
    const [rut, dv] = payer.split('-') as [string, string];
    const res = await t.app.inject({
      method: 'POST',
      url: '/prod/pago/producto/cuentavista/autentica',
      remoteAddress,
      headers: { 'content-type': 'application/json', authorization: await solveCaptcha(t.app, captchaFrom) },
      payload: { autenticaConsultaFactoresRequest: { userId: payer, canalLlamada: 'PGEX', token, autenticacion: { rut, dv, clave } } },
    });
    if (res.statusCode === 429) return `429:${errorCode(res, AUT)}`;
    return errorCode(res, AUT) ?? '200';
  };
  /** Every client's block lifts, as half an hour later (a first block lasts PASSWORD_LOCK_MINUTES). */
  const halfAnHourLater = () => t.database.db.update(passwordClientGuards).set({ passwordLockedUntil: sql`now() - interval '1 second'` });

  it('from 10 addresses in an hour blocks no member’s password, and answers a member as it answers a stranger', async () => {
    const token = await start({ rateLimits: { loginFailedPayers: 5 } });
    const answers: Record<string, string[]> = { [VICTIM]: [], [STRANGER]: [] };
    for (let half = 0; half < 2; half++) {
      for (let i = 1; i <= 10; i++) {
        for (const rut of [VICTIM, STRANGER]) for (let k = 0; k < 4; k++) answers[rut]!.push(await login(token, rut, `adivina${k}`, `10.66.0.${i}`));
      }
      await halfAnHourLater();
    }
    // Each client is blocked for the RUT it guessed at, member or not: the answers tell nobody who is a member.
    expect(answers[VICTIM]!.slice(0, 4)).toEqual(['45203113', '45203113', '45203016', '45203016']);
    expect(answers[VICTIM]).toEqual(answers[STRANGER]);
    // The member, on their own device, logs in.
    expect(await login(token, VICTIM, '1234', '192.0.2.7')).toBe('200');
    expect(await t.database.db.$count(outbox)).toBe(0);
  });

  it('warns of the last attempt after a client’s own second wrong password only, for members and strangers alike', async () => {
    const token = await start();
    /** What call 4 tells a client: the code and the text the member reads. */
    const told = async (payer: string, client: string) => {
      const [rut, dv] = payer.split('-') as [string, string];
      const res = await t.app.inject({
        method: 'POST',
        url: '/prod/pago/producto/cuentavista/autentica',
        remoteAddress: client,
        headers: { 'content-type': 'application/json', authorization: await solveCaptcha(t.app) },
        payload: { autenticaConsultaFactoresRequest: { userId: payer, canalLlamada: 'PGEX', token, autenticacion: { rut, dv, clave: 'x' } } },
      });
      const detalle = readError(res.json(), AUT);
      return detalle ? `${detalle.codigo} ${detalle.descripcion}` : String(res.statusCode);
    };
    const wrong = `45203113 ${ERROR_CATALOGUE['45203113']!.descripcion}`;
    const last = `45203113 ${LAST_PASSWORD_ATTEMPT_MESSAGE}`;
    const blocked = `45203016 ${BLOCKED_PASSWORD_MESSAGE}`;
    const series: Record<string, string[]> = {};
    for (const [rut, client] of [[VICTIM, '10.66.3.1'], [STRANGER, '10.66.3.2'], [NOT_ENROLLED, '10.66.3.3']] as const) {
      series[rut] = [await told(rut, client), await told(rut, client), await told(rut, client)];
    }
    // The warning comes where the client's own next failure blocks, and says no more than the block then does.
    expect(series[VICTIM]).toEqual([wrong, last, blocked]);
    expect(series[STRANGER]).toEqual(series[VICTIM]);
    expect(series[NOT_ENROLLED]).toEqual(series[VICTIM]);
    expect(last).toContain('Te queda 1 intento');
    // Another client learns nothing of those guesses: its first wrong password is a first one.
    expect(await told(VICTIM, '10.66.3.9')).toBe(wrong);
    // The member's right password on their device starts the count again there.
    expect(await login(token, VICTIM, '1234', '10.66.3.9')).toBe('200');
    expect(await told(VICTIM, '10.66.3.9')).toBe(wrong);
  });

  it('still blocks a member who mistypes three times on their own device', async () => {
    const token = await start();
    const own = '192.0.2.8';
    expect([await login(token, VICTIM, 'x', own), await login(token, VICTIM, 'y', own), await login(token, VICTIM, 'z', own)]).toEqual(['45203113', '45203113', '45203016']);
    expect(await login(token, VICTIM, '1234', own)).toBe('45203016');
  });

  /** The counter of the challenge the captcha route gives a client: the work its solution takes. */
  const challengeWork = async (remoteAddress: string) => {
    const header = await solveCaptcha(t.app, remoteAddress);
    return (JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { solution: { counter: number } }).solution.counter;
  };

  it('makes a client that fails for many payers pay a costlier captcha, not an hour’s refusal, members and strangers alike', async () => {
    const token = await start({ config: { altchaCounter: { min: 10, max: 50 } }, rateLimits: { loginFailedPayers: 5 } });
    const sprayer = '10.66.1.1';
    expect(await challengeWork(sprayer)).toBeLessThanOrEqual(50);
    for (const rut of ['9876543-3', '15432876-9', '21212121-5', '22222222-2', '16789012-1']) expect(await login(token, rut, 'x', sprayer)).toBe('45203113');
    // Its challenges now take at least five times the most an ordinary one does.
    for (let i = 0; i < 5; i++) expect(await challengeWork(sprayer)).toBeGreaterThanOrEqual(250);
    expect(await challengeWork('10.66.1.2')).toBeLessThanOrEqual(50);
    // An ordinary captcha (asked elsewhere) does not do for a new payer: refused as a captcha, nothing judged.
    expect(await login(token, '23232323-K', 'x', sprayer, '10.66.1.2')).toBe('482');
    expect(await t.database.db.$count(auditLog, eq(auditLog.kind, 'clave.cliente.captcha'))).toBe(1);
    // A member behind the same address logs in with the costlier one; a stranger's guess is judged as any other.
    expect(await login(token, '12345678-5', '1234', sprayer)).toBe('200');
    expect(await login(token, '23232323-K', 'x', sprayer)).toBe('45203113');
    // A payer this client already failed for is judged with an ordinary one (a shared computer's member retyping).
    expect(await login(token, '9876543-3', '1234', sprayer, '10.66.1.2')).toBe('200');
  });

  it('counts every address of one IPv6 /64 as one client', async () => {
    const token = await start({ config: { altchaCounter: { min: 10, max: 50 } }, rateLimits: { loginFailedPayers: 5 } });
    const payers = ['9876543-3', '15432876-9', '21212121-5', '22222222-2', '16789012-1'];
    for (const [i, rut] of payers.entries()) expect(await login(token, rut, 'x', `2001:db8:66:1::${i + 1}`)).toBe('45203113');
    expect(await challengeWork('2001:db8:66:1:ffff::9')).toBeGreaterThanOrEqual(250);
    expect(await login(token, '23232323-K', 'x', '2001:db8:66:1::99', '2001:db8:66:2::1')).toBe('482');
    // Another /64 is another client.
    expect(await challengeWork('2001:db8:66:2::1')).toBeLessThanOrEqual(50);
    // Three wrong passwords from three addresses of one /64 block that RUT there, as from one address.
    const blocked = [];
    for (const host of ['a', 'b', 'c', 'd']) blocked.push(await login(token, '12345678-5', 'x', `2001:db8:66:3::${host}`));
    expect(blocked).toEqual(['45203113', '45203113', '45203016', '45203016']);
  });

  it('blocks a password on every client only after wrong ones from several clients, and tells the member by e-mail', async () => {
    const token = await start({ config: { passwordBlockFailures: 6 } });
    for (const client of ['10.66.2.1', '10.66.2.2']) {
      for (let k = 0; k < 3; k++) await login(token, VICTIM, 'x', client);
    }
    // Six wrong ones, but from two clients: a third client still logs in.
    expect(await login(token, VICTIM, '1234', '10.66.2.9')).toBe('200');
    for (const client of ['10.66.2.1', '10.66.2.2']) {
      await halfAnHourLater();
      for (let k = 0; k < 3; k++) await login(token, VICTIM, 'x', client);
    }
    expect(await t.database.db.$count(outbox)).toBe(0);
    expect(await login(token, VICTIM, 'x', '10.66.2.3')).toBe('45203016');
    expect(await login(token, VICTIM, '1234', '10.66.2.4')).toBe('45203016');
    const mails = await t.database.db.select().from(outbox);
    expect(mails.map((m) => m.to)).toEqual(['rosa.contreras@example.cl']);
    expect(mails[0]!.text).toContain('bloqueada');
    const [line] = await t.database.db.select().from(auditLog).where(sql`${auditLog.detail}->>'alcance' = 'todos'`);
    expect(line?.detail).toMatchObject({ clientes: 3, minutos: 30 });
  });

  it('lets the member’s own browser through a block others caused, lifting it, without calling the cooperative', async () => {
    const token = await start({ config: { passwordBlockFailures: 6 } });
    /** Call 4 from a browser holding `cookie`: the code, and the device cookie it was given. */
    const fromBrowser = async (payer: string, clave: string, cookie?: string) => {
      const [rut, dv] = payer.split('-') as [string, string];
      const res = await t.app.inject({
        method: 'POST',
        url: '/prod/pago/producto/cuentavista/autentica',
        remoteAddress: '192.0.2.50',
        headers: { 'content-type': 'application/json', authorization: await solveCaptcha(t.app, '192.0.2.50'), ...(cookie ? { cookie } : {}) },
        payload: { autenticaConsultaFactoresRequest: { userId: payer, canalLlamada: 'PGEX', token, autenticacion: { rut, dv, clave } } },
      });
      const given = String(res.headers['set-cookie'] ?? '');
      return { codigo: errorCode(res, AUT) ?? '200', cookie: given ? given.split(';')[0]! : undefined, attributes: given };
    };
    // The member signs in once from their browser: it is given its id, httpOnly and only for call 4.
    const first = await fromBrowser(VICTIM, '1234');
    expect(first.codigo).toBe('200');
    expect(first.attributes).toMatch(/^pago_dispositivo=[A-Za-z0-9_-]{43}; Path=\/prod\/pago\/producto\/cuentavista\/autentica; Max-Age=15552000; HttpOnly; Secure; SameSite=Strict$/);
    const own = first.cookie!;
    expect((await fromBrowser(VICTIM, '1234', own)).cookie).toBeUndefined();
    // Strangers on three clients block the password everywhere.
    for (const client of ['10.66.3.1', '10.66.3.2', '10.66.3.3']) for (let k = 0; k < 2; k++) await login(token, VICTIM, 'x', client);
    expect(await login(token, VICTIM, '1234', '10.66.3.9')).toBe('45203016');
    expect((await fromBrowser(VICTIM, '1234')).codigo).toBe('45203016');
    // Another member's browser id does not open this RUT; a made-up one neither.
    const other = (await fromBrowser(HOLDER, '1234')).cookie!;
    expect((await fromBrowser(VICTIM, '1234', other)).codigo).toBe('45203016');
    expect((await fromBrowser(VICTIM, '1234', `pago_dispositivo=${'A'.repeat(43)}`)).codigo).toBe('45203016');
    // The member's own browser: a wrong password is still wrong, the right one signs in and lifts the block.
    expect((await fromBrowser(VICTIM, 'x', own)).codigo).toBe('45203113');
    expect((await fromBrowser(VICTIM, '1234', own)).codigo).toBe('200');
    expect(await t.database.db.$count(auditLog, eq(auditLog.kind, 'clave.desbloqueada.dispositivo'))).toBe(1);
    expect(await login(token, VICTIM, '1234', '10.66.3.9')).toBe('200');
    // A block set by an operator or the core is not a block by guesses: the browser does not lift it.
    await t.database.db.update(members).set({ passwordBlockedAt: new Date(), passwordLockedUntil: null }).where(eq(members.rut, VICTIM));
    expect((await fromBrowser(VICTIM, '1234', own)).codigo).toBe('45203016');
  }, 120_000);
});
