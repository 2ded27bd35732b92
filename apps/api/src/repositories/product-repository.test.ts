import { eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../db/client';
import { captchaUses, instalments, members, products, sessions } from '../db/schema';
import { createProductService } from '../services/product-service';
import { hashToken, newSessionToken } from '../services/session-service';
import { DATABASE_KINDS, openTestDatabase } from '../../test/support/test-app';
import { productsInFamily, spendAndListProducts } from './product-repository';
import { touchSession } from './session-repository';

const EDGE_RUT = '22222222-2';
const NOTICE_RUT = '33333333-3';
const NOBODY = '44444444-4';

describe.each(DATABASE_KINDS)('the member repositories on %s', (kind) => {
  let database: Database;
  let db: Db;
  let memberId: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
    // Instalments stored out of order with one due date shared, a paid one, product numbers that sort as text.
    const [member] = await db.insert(members).values({ rut: EDGE_RUT, name: 'Ñandú Öhlmann', email: 'n@example.cl' }).returning();
    memberId = member!.id;
    await db.insert(members).values({ rut: NOTICE_RUT, name: 'Aviso', listNoticeCode: '47501' });
    const inserted = await db
      .insert(products)
      .values([
        { memberId, family: 'PC', numeroProducto: '10', fechaVigenciaAbono: '2026-12-31', permiteAbono: true, montoMinimoAbonoMultiple: 7 },
        { memberId, family: 'PC', numeroProducto: '9', deudaTotal: 2_000_000_000 },
        { memberId, family: 'TC', numeroProducto: 'A-1', fechaFacturacion: '2026-11-05', cupoTotal: 1 },
        { memberId, family: 'AH', numeroProducto: 'AH-1', saldo: 5 },
      ])
      .returning();
    const numbered = (numero: string) => inserted.find((p) => p.numeroProducto === numero)!;
    await db.insert(instalments).values([
      { productId: numbered('10').id, numeroCuota: 3, montoOriginal: 10, montoPendiente: 10, fechaVencimiento: '2027-01-01', medioPago: 'CONVENIO' },
      { productId: numbered('10').id, numeroCuota: 1, montoOriginal: 10, montoPendiente: 0, fechaVencimiento: '2027-01-01', paidAt: new Date('2026-11-20T10:11:12.345Z') },
      { productId: numbered('10').id, numeroCuota: 2, montoOriginal: 10, montoPendiente: 5, pagoMinimo: 5, fechaVencimiento: '2026-12-01' },
      { productId: numbered('A-1').id, numeroCuota: 1, montoOriginal: 350_000, montoPendiente: 350_000, fechaVencimiento: '2026-11-25' },
      // The card's latest statement, paid: the list still shows it. A row under a savings account: never shown.
      { productId: numbered('A-1').id, numeroCuota: 2, montoOriginal: 90_000, montoPendiente: 0, fechaVencimiento: '2026-12-25' },
      { productId: numbered('AH-1').id, numeroCuota: 1, montoOriginal: 1, montoPendiente: 1, fechaVencimiento: '2026-12-25' },
    ]);
  });
  afterAll(async () => {
    await database.close();
  });

  const spend = () => ({ signature: randomUUID(), expiresAt: new Date(Date.now() + 60_000) });
  const listOf = async (rut: string) => {
    const listing = await spendAndListProducts(db, spend(), rut, newSessionToken().tokenHash);
    if (!listing || 'notice' in listing) throw new Error(`no list for ${rut}`);
    return listing;
  };

  it('lists the products by family and number, with what each may show: owed instalments, every card statement, nothing of savings', async () => {
    const listing = await listOf(EDGE_RUT);
    const [session] = await db.select().from(sessions).where(eq(sessions.id, listing.sessionId));
    expect(session?.rut).toBe(EDGE_RUT);
    const listed = listing.products;
    expect(listed.map((p) => p.product.numeroProducto)).toEqual(['AH-1', '10', '9', 'A-1']);
    expect(listed[0]!.instalments).toEqual([]);
    // The paid instalment 1 is not read; 2 falls due before 3.
    expect(listed[1]!.instalments.map((i) => i.numeroCuota)).toEqual([2, 3]);
    expect(listed[2]!.instalments).toEqual([]);
    expect(listed[3]!.instalments.map((i) => [i.numeroCuota, i.montoPendiente])).toEqual([
      [1, 350_000],
      [2, 0],
    ]);
    // The database function's JSON has the types Drizzle gives the same columns: numbers, 'yyyy-mm-dd', null.
    expect(listed[1]).toEqual({
      product: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        family: 'PC',
        numeroProducto: '10',
        permiteAbono: true,
        permiteMultipleAbono: false,
        montoMinimoAbonoMultiple: 7,
        fechaVigenciaAbono: '2026-12-31',
        fechaFacturacion: null,
      },
      instalments: [
        { numeroCuota: 2, montoPendiente: 5, pagoMinimo: 5, fechaVencimiento: '2026-12-01', medioPago: null },
        { numeroCuota: 3, montoPendiente: 10, pagoMinimo: 0, fechaVencimiento: '2027-01-01', medioPago: 'CONVENIO' },
      ],
    });
    expect(listed[3]!.product.fechaFacturacion).toBe('2026-11-05');
  });

  it('answers the notice of a member who has one, and a session with nothing for a RUT that is no member’s', async () => {
    expect(await spendAndListProducts(db, spend(), NOTICE_RUT, newSessionToken().tokenHash)).toEqual({ notice: '47501' });
    expect((await listOf(NOBODY)).products).toEqual([]);
  });

  it('lists once for one captcha solution sent many times at once: one session, the others refused as replays', async () => {
    const once = spend();
    const answers = await Promise.all(Array.from({ length: 8 }, () => spendAndListProducts(db, once, EDGE_RUT, newSessionToken().tokenHash)));
    const listed = answers.filter((answer) => answer !== null);
    expect(listed).toHaveLength(1);
    const opened = await db.select().from(sessions).where(eq(sessions.id, (listed[0] as { sessionId: string }).sessionId));
    expect(opened).toHaveLength(1);
  });

  it('reads one family with every instalment, paid ones included, for the selection to check against', async () => {
    const credits = await productsInFamily(db, memberId, 'PC');
    expect(credits.map((p) => [p.product.numeroProducto, p.instalments.map((i) => i.numeroCuota)])).toEqual([
      ['10', [2, 1, 3]],
      ['9', []],
    ]);
    expect(credits[0]!.instalments[1]!.paidAt).toEqual(new Date('2026-11-20T10:11:12.345Z'));
    expect(await productsInFamily(db, memberId, 'HI')).toEqual([]);
  });

  it('touches a session only with its token and RUT, slides it, and not past its inactivity timeout', async () => {
    const { tokenHash } = newSessionToken();
    const [{ id }] = (await db.insert(sessions).values({ tokenHash, rut: EDGE_RUT }).returning({ id: sessions.id })) as [{ id: string }];
    expect(await touchSession(db, tokenHash, NOBODY, 5)).toBeNull();
    expect(await touchSession(db, hashToken('another'), EDGE_RUT, 5)).toBeNull();
    await db.execute(sql`update sessions set last_seen_at = now() - interval '4 minutes' where id = ${id}`);
    expect(await touchSession(db, tokenHash, EDGE_RUT, 5)).toEqual({ id, rut: EDGE_RUT });
    expect(await touchSession(db, tokenHash, null, 5)).toEqual({ id, rut: EDGE_RUT });
    await db.execute(sql`update sessions set last_seen_at = now() - interval '6 minutes' where id = ${id}`);
    expect(await touchSession(db, tokenHash, EDGE_RUT, 5)).toBeNull();
  });

  it('spends the captcha with the list; a replay lists and opens nothing; a notice opens no session; a stranger gets a session and nothing', async () => {
    const service = createProductService(db, () => new Date('2026-11-21T16:00:00Z'));
    const sessionsOf = async (rut: string) => (await db.select().from(sessions).where(eq(sessions.rut, rut))).length;
    const spend = { signature: randomUUID(), expiresAt: new Date(Date.now() + 60_000) };

    const before = await sessionsOf(EDGE_RUT);
    const first = await service.list(EDGE_RUT, 'r1', spend);
    expect(first.ok && first.productos.length).toBeGreaterThan(0);
    expect(await sessionsOf(EDGE_RUT)).toBe(before + 1);
    expect(await db.select().from(captchaUses).where(eq(captchaUses.signature, spend.signature))).toHaveLength(1);

    expect(await service.list(EDGE_RUT, 'r2', spend)).toEqual({ ok: false, replayed: true });
    expect(await sessionsOf(EDGE_RUT)).toBe(before + 1);

    expect(await service.list(NOTICE_RUT, 'r3', { ...spend, signature: randomUUID() })).toEqual({ ok: false, codigo: '47501' });
    expect(await sessionsOf(NOTICE_RUT)).toBe(0);

    const strangers = await sessionsOf(NOBODY);
    const stranger = await service.list(NOBODY, 'r4', { ...spend, signature: randomUUID() });
    expect(stranger).toMatchObject({ ok: true, productos: [] });
    expect(await sessionsOf(NOBODY)).toBe(strangers + 1);
  });
});
