import { asc, eq, inArray, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '@pago/domain/families';
import type { Database, Db, DbOrTx } from '../db/client';
import { DEMO_MEMBERS } from '../db/demo-data';
import { captchaUses, instalments, members, products, sessions } from '../db/schema';
import { seedDemoMembers } from '../db/seed';
import { anotherReplica, DATABASE_KINDS, openTestDatabase } from '../test/test-app';
import { toWireProduct } from '../services/product-view';
import { touchSessionWithProducts } from '../services/selection-service';
import { newSessionToken } from '../services/session-service';
import { spendAndList } from '../services/product-service';
import type { ListedProduct, ProductWithInstalments } from './product-repository';

/** The reads as plain selects, one row per instalment: what the JSON reads must reproduce exactly. */
async function plainProducts(db: DbOrTx, memberId: string, family?: string): Promise<ProductWithInstalments[]> {
  const productRows = (
    await db.select().from(products).where(eq(products.memberId, memberId)).orderBy(asc(products.family), asc(products.numeroProducto))
  ).filter((p) => !family || p.family === family);
  if (productRows.length === 0) return [];
  const instalmentRows = await db
    .select()
    .from(instalments)
    .where(
      inArray(
        instalments.productId,
        productRows.map((p) => p.id),
      ),
    )
    .orderBy(asc(instalments.fechaVencimiento), asc(instalments.numeroCuota));
  return productRows.map((product) => ({ product, instalments: instalmentRows.filter((i) => i.productId === product.id) }));
}

/** What the list reads of those rows: its columns only, and the instalments it may show (product-repository.ts). */
function listed(rows: ProductWithInstalments[]): ListedProduct[] {
  return rows.map(({ product, instalments: list }) => ({
    product: {
      family: product.family,
      numeroProducto: product.numeroProducto,
      permiteAbono: product.permiteAbono,
      permiteMultipleAbono: product.permiteMultipleAbono,
      montoMinimoAbonoMultiple: product.montoMinimoAbonoMultiple,
      fechaVigenciaAbono: product.fechaVigenciaAbono,
      fechaFacturacion: product.fechaFacturacion,
      deudaTotal: product.deudaTotal,
      deudaTotalInternacional: product.deudaTotalInternacional,
      cupoTotal: product.cupoTotal,
      numeroCuotasPactadas: product.numeroCuotasPactadas,
    },
    instalments: list
      .filter((i) => product.family !== 'AH' && (product.family === 'TC' || i.montoPendiente > 0))
      .map((i) => ({ numeroCuota: i.numeroCuota, montoPendiente: i.montoPendiente, pagoMinimo: i.pagoMinimo, fechaVencimiento: i.fechaVencimiento, medioPago: i.medioPago })),
  }));
}

/** The product list's read with a captcha never spent before: the member and what the list shows, or null for no member. */
async function findMemberWithProducts(db: DbOrTx, rut: string) {
  const found = await spendAndList(db, { signature: randomUUID(), expiresAt: new Date(Date.now() + 60_000) }, rut, newSessionToken().tokenHash);
  if (!found.spent) throw new Error('a new captcha was taken for spent');
  return found.member ? { member: found.member, products: found.products } : null;
}

/** A session of `rut`, written directly: the list opens none for a member with a notice, and these reads take any. */
async function createSession(db: DbOrTx, rut: string) {
  const { token, tokenHash } = newSessionToken();
  const [session] = await db.insert(sessions).values({ tokenHash, rut }).returning({ id: sessions.id, rut: sessions.rut });
  return { token, session: session! };
}

const EDGE_RUT = '22222222-2';
const NOBODY = '5126663-3';

describe.each(DATABASE_KINDS)('product reads on %s', (kind) => {
  let database: Database;
  let db: Db;
  let ruts: string[];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
    await seedDemoMembers(db, new Date('2026-11-21T16:00:00Z'));
    // What the demo data lacks: instalments stored out of order with one due date shared, a paid one with a
    // timestamp to the microsecond, product numbers that sort as text, a member's name and products in non-ASCII.
    const [member] = await db.insert(members).values({ rut: EDGE_RUT, name: 'Ñandú Öhlmann', email: 'n@example.cl' }).returning();
    const inserted = await db
      .insert(products)
      .values([
        { memberId: member!.id, family: 'PC', numeroProducto: '10', fechaVigenciaAbono: '2026-12-31', permiteAbono: true, montoMinimoAbonoMultiple: 7 },
        { memberId: member!.id, family: 'PC', numeroProducto: '9', deudaTotal: 2_000_000_000 },
        { memberId: member!.id, family: 'TC', numeroProducto: 'A-1', fechaFacturacion: '2026-11-05', cupoTotal: 1 },
        { memberId: member!.id, family: 'AH', numeroProducto: 'AH-1', saldo: 5 },
      ])
      .returning();
    const numbered = (numero: string) => inserted.find((p) => p.numeroProducto === numero);
    const [credit, card, savings] = [numbered('10'), numbered('A-1'), numbered('AH-1')];
    await db.insert(instalments).values([
      { productId: credit!.id, numeroCuota: 3, montoOriginal: 10, montoPendiente: 10, fechaVencimiento: '2027-01-01', medioPago: 'CONVENIO' },
      { productId: credit!.id, numeroCuota: 1, montoOriginal: 10, montoPendiente: 0, fechaVencimiento: '2027-01-01', paidAt: new Date('2026-11-20T10:11:12.345Z') },
      { productId: credit!.id, numeroCuota: 2, montoOriginal: 10, montoPendiente: 5, pagoMinimo: 5, fechaVencimiento: '2026-12-01' },
      { productId: card!.id, numeroCuota: 1, montoOriginal: 350_000, montoPendiente: 350_000, fechaVencimiento: '2026-11-25' },
      // The card's latest statement, paid: the list still shows it. A row under a savings account: never shown.
      { productId: card!.id, numeroCuota: 2, montoOriginal: 90_000, montoPendiente: 0, fechaVencimiento: '2026-12-25' },
      { productId: savings!.id, numeroCuota: 1, montoOriginal: 1, montoPendiente: 1, fechaVencimiento: '2026-12-25' },
    ]);
    // A timestamp with microseconds, as now() writes them.
    await db.execute(sql`update instalments set paid_at = '2026-11-20 10:11:12.345678+00' where paid_at is not null`);
    ruts = [...DEMO_MEMBERS.map((m) => m.rut), EDGE_RUT];
  });
  afterAll(async () => {
    await database.close();
  });

  it('reads each member with their products and the instalments the list may show as the plain selects do, in one statement', async () => {
    for (const rut of ruts) {
      const [member] = await db.select().from(members).where(eq(members.rut, rut));
      const found = await findMemberWithProducts(db, rut);
      expect(found, rut).toEqual({ member: { id: member!.id, listNoticeCode: member!.listNoticeCode }, products: listed(await plainProducts(db, member!.id)) });
    }
    expect(await findMemberWithProducts(db, NOBODY)).toBeNull();
    const edge = (await findMemberWithProducts(db, EDGE_RUT))!;
    expect(edge.products.map((p) => p.product.numeroProducto)).toEqual(['AH-1', '10', '9', 'A-1']);
    // The paid instalment 1 is not read; 2 falls due before 3.
    expect(edge.products[1]!.instalments.map((i) => i.numeroCuota)).toEqual([2, 3]);
    expect(edge.products[1]!.instalments[1]!.medioPago).toBe('CONVENIO');
    expect(edge.products[3]!.instalments.map((i) => [i.numeroCuota, i.montoPendiente])).toEqual([[1, 350_000], [2, 0]]);
    expect(edge.products[0]!.instalments).toEqual([]);
  });

  it('spends the captcha in the list’s statement, and opens a session unless the member has a notice; a replay reads and writes nothing', async () => {
    const sessionsUnder = async (tokenHash: string) => (await db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash))).map((row) => row.rut);
    const spend = { signature: randomUUID(), expiresAt: new Date(Date.now() + 60_000) };
    const first = newSessionToken().tokenHash;
    const answer = await spendAndList(db, spend, '11111111-1', first);
    expect(answer).toMatchObject({ spent: true, member: { listNoticeCode: null } });
    expect(answer.spent && answer.products.length).toBeGreaterThan(0);
    expect(answer.spent && answer.sessionId).toEqual((await db.select().from(sessions).where(eq(sessions.tokenHash, first)))[0]!.id);
    expect(await db.select().from(captchaUses).where(eq(captchaUses.signature, spend.signature))).toHaveLength(1);

    const replay = newSessionToken().tokenHash;
    expect(await spendAndList(db, spend, '11111111-1', replay)).toEqual({ spent: false });
    expect(await sessionsUnder(replay)).toEqual([]);

    // A member with a notice: the notice, and no session.
    const notice = newSessionToken().tokenHash;
    expect(await spendAndList(db, { ...spend, signature: randomUUID() }, '18765432-7', notice)).toMatchObject({ spent: true, member: { listNoticeCode: '47501' }, sessionId: null });
    expect(await sessionsUnder(notice)).toEqual([]);

    // A RUT that is no member's: a session and nothing listed, as for a member with nothing to pay.
    const nobody = newSessionToken().tokenHash;
    expect(await spendAndList(db, { ...spend, signature: randomUUID() }, NOBODY, nobody)).toMatchObject({ spent: true, member: null, products: [] });
    expect(await sessionsUnder(nobody)).toEqual([NOBODY]);
  });

  it('lists from that read what it lists from the whole rows, on any business day', async () => {
    for (const today of ['20260101', '20261121', '20261201', '20270101', '20300101']) {
      for (const rut of ruts) {
        const [member] = await db.select().from(members).where(eq(members.rut, rut));
        const whole = (await plainProducts(db, member!.id)).map((row) => toWireProduct(row, today));
        const read = (await findMemberWithProducts(db, rut))!.products.map((row) => toWireProduct(row, today));
        expect(read, `${rut} on ${today}`).toEqual(whole);
      }
    }
  });

  it('reads with the session touched the member and their products of one family as the plain selects do, in one statement', async () => {
    for (const rut of ruts) {
      const [member] = await db.select().from(members).where(eq(members.rut, rut));
      const { token, session } = await createSession(db, rut);
      for (const family of FAMILIES) {
        expect(await touchSessionWithProducts(db, token, rut, 5, family), `${rut} ${family}`).toEqual({
          session,
          member: { id: member!.id, products: await plainProducts(db, member!.id, family) },
        });
      }
      // Bound to the session's RUT: another member's RUT, or another token, touches nothing and reads nothing.
      expect(await touchSessionWithProducts(db, token, rut === EDGE_RUT ? '11111111-1' : EDGE_RUT, 5, 'PC')).toBeNull();
      expect(await touchSessionWithProducts(db, `${token}x`, rut, 5, 'PC')).toBeNull();
    }
    const edge = (await touchSessionWithProducts(db, (await createSession(db, EDGE_RUT)).token, EDGE_RUT, 5, 'PC'))!;
    // Paid instalments too, and products by number as text.
    expect(edge.member!.products.map((p) => [p.product.numeroProducto, p.instalments.map((i) => i.numeroCuota)])).toEqual([
      ['10', [2, 1, 3]],
      ['9', []],
    ]);
    expect(edge.member!.products[0]!.instalments[1]!.paidAt).toEqual(new Date('2026-11-20T10:11:12.345Z'));
    // A session whose RUT no member has: the session, and no member.
    const { token, session } = await createSession(db, NOBODY);
    expect(await touchSessionWithProducts(db, token, NOBODY, 5, 'PC')).toEqual({ session, member: null });
  });

  it('slides the session it reads with, and reads nothing for a session idle past its timeout', async () => {
    const { token, session } = await createSession(db, EDGE_RUT);
    await db.execute(sql`update sessions set last_seen_at = now() - interval '4 minutes' where id = ${session.id}`);
    expect((await touchSessionWithProducts(db, token, EDGE_RUT, 5, 'PC'))?.session).toEqual(session);
    const [touched] = await db.select({ recent: sql<boolean>`${sessions.lastSeenAt} > now() - interval '1 minute'` }).from(sessions).where(eq(sessions.id, session.id));
    expect(touched?.recent).toBe(true);
    await db.execute(sql`update sessions set last_seen_at = now() - interval '6 minutes' where id = ${session.id}`);
    expect(await touchSessionWithProducts(db, token, EDGE_RUT, 5, 'PC')).toBeNull();
  });

  it('answers the same inside a transaction, and to another replica', async () => {
    const replica = anotherReplica(kind, db);
    const [member] = await db.select().from(members).where(eq(members.rut, '11111111-1'));
    const expected = await plainProducts(db, member!.id);
    const credits = await plainProducts(db, member!.id, 'PC');
    const { token } = await createSession(db, '11111111-1');
    await db.transaction(async (tx) => {
      expect((await touchSessionWithProducts(tx, token, '11111111-1', 5, 'PC'))?.member).toEqual({ id: member!.id, products: credits });
      expect((await findMemberWithProducts(tx, '11111111-1'))?.products).toEqual(listed(expected));
    });
    expect((await touchSessionWithProducts(replica, token, '11111111-1', 5, 'PC'))?.member?.id).toBe(member!.id);
    expect((await findMemberWithProducts(replica, '11111111-1'))?.products).toEqual(listed(expected));
  });

  it('reads inside a transaction what the transaction sees', async () => {
    const [member] = await db.select().from(members).where(eq(members.rut, EDGE_RUT));
    const { token } = await createSession(db, EDGE_RUT);
    const debts = async (handle: DbOrTx) => (await touchSessionWithProducts(handle, token, EDGE_RUT, 5, 'PC'))!.member!.products.map((p) => p.product.deudaTotal);
    const rolledBack = new Error('roll back');
    await expect(
      db.transaction(async (tx) => {
        await tx.update(products).set({ deudaTotal: 1 }).where(eq(products.memberId, member!.id));
        expect(await debts(tx)).toEqual([1, 1]);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await debts(db)).toEqual([0, 2_000_000_000]);
  });
});
