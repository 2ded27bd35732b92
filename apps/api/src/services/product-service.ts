import { businessToday } from '@pago/domain/business-time';
import type { Producto } from '@pago/domain/products';
import { maskRut } from '@pago/domain/rut';
import { sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db, DbOrTx } from '../db/client';
import { preparedPerHandle } from '../db/prepared';
import { sessions } from '../db/schema';
import { appendAudit } from '../repositories/audit-repository';
import { decodeListedProducts, memberWithProducts, type ListedProduct, type MemberRow } from '../repositories/product-repository';
import { captchaSpend, type CaptchaSpend } from './captcha-service';
import { toWireProduct } from './product-view';
import { newSessionToken } from './session-service';

export type ListResult = { ok: true; token: string; productos: Producto[] } | { ok: false; codigo: string } | { ok: false; replayed: true };

export type ProductService = ReturnType<typeof createProductService>;

/**
 * Call 2's database work in one round trip and one snapshot, atomic: the captcha's solution spent; if it was not spent
 * before, the member with that RUT and what they owe; and, unless the member has a notice to show instead, a new
 * session. No row: the solution was spent already (a replay), and nothing was read or written.
 */
const listing = preparedPerHandle('listing', (db) => {
  const spent = db.$with('spent').as(captchaSpend(db));
  const member = db.$with('member').as(memberWithProducts(db, sql`exists (select 1 from ${spent})`));
  // Data-modifying CTEs all run, referenced or not: the condition is the insert's own, through INSERT … SELECT.
  const created = db.$with('created', { id: sessions.id }).as(
    sql`insert into ${sessions} (${sql.identifier(sessions.tokenHash.name)}, ${sql.identifier(sessions.rut.name)}) select ${sql.placeholder('tokenHash')}, ${sql.placeholder('rut')} from ${spent} where not exists (select 1 from ${member} where ${member.listNoticeCode} is not null) returning ${sql.identifier(sessions.id.name)}`,
  );
  return db
    .with(spent, member, created)
    .select({ memberId: member.id, listNoticeCode: member.listNoticeCode, products: member.products, sessionId: created.id })
    .from(spent)
    .leftJoin(member, sql`true`)
    .leftJoin(created, sql`true`);
});

export type ListingRead =
  | { spent: false }
  | { spent: true; member: Pick<MemberRow, 'id' | 'listNoticeCode'> | null; products: ListedProduct[]; sessionId: string | null };

/** Spends the captcha and, when it was not spent before, reads what the list shows of `rut` and opens a session under `tokenHash`. */
export async function spendAndList(db: DbOrTx, spend: CaptchaSpend, rut: string, tokenHash: string): Promise<ListingRead> {
  const [row] = await listing(db).execute({ ...spend, rut, tokenHash });
  if (!row) return { spent: false };
  return {
    spent: true,
    member: row.memberId === null ? null : { id: row.memberId, listNoticeCode: row.listNoticeCode },
    products: row.products === null ? [] : decodeListedProducts(row.products),
    sessionId: row.sessionId,
  };
}

export function createProductService(db: Db, clock: Clock) {
  return {
    /**
     * Call 2, once its captcha is verified (`spend`). A RUT that is not a member gets the same answer as a member with
     * nothing to pay (a session and an empty list), so the list does not tell who is a member.
     */
    async list(rut: string, requestId: string, spend: CaptchaSpend): Promise<ListResult> {
      const { token, tokenHash } = newSessionToken();
      const found = await spendAndList(db, spend, rut, tokenHash);
      if (!found.spent) return { ok: false, replayed: true };
      const notice = found.member?.listNoticeCode;
      if (notice) {
        await appendAudit(db, { kind: 'listar.aviso', rutMasked: maskRut(rut), requestId, detail: { codigo: notice } });
        return { ok: false, codigo: notice };
      }
      if (!found.sessionId) throw new Error('the listing opened no session');
      const today = businessToday(clock());
      const productos = found.products.map((row) => toWireProduct(row, today)).filter((p): p is Producto => p !== null);
      return { ok: true, token, productos };
    },
  };
}
