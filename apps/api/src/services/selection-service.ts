import { isUnavailableHour } from '@pago/domain/business-time';
import { businessToday } from '@pago/domain/business-time';
import type { SeleccionarProductoRequest } from '@pago/domain/call-seleccionar';
import { toParameterMap, graceDaysName, familySwitchName } from '@pago/domain/parameters';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import type { Family } from '@pago/domain/families';
import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Db, DbOrTx } from '../db/client';
import { inOneStatement } from '../db/one-statement';
import { preparedPerHandle } from '../db/prepared';
import { members, transactionItems, transactions } from '../db/schema';
import { appendAudit } from '../repositories/audit-repository';
import { listParameters } from '../repositories/parameters-repository';
import { decodeProductsWithInstalments, productsOfMemberInFamily, type ProductWithInstalments } from '../repositories/product-repository';
import { validateSelection } from './selection-rules';
import { touch, touchValues, type SessionRow } from './session-service';

type Request = SeleccionarProductoRequest['seleccionarProductoRequest'];
export type SelectResult = { ok: true; idTransaccion: string; total: number } | { ok: false; codigo: string };

/** 128 random bits: a transaction id cannot be guessed from another. */
export const newTransactionId = () => randomBytes(16).toString('hex');

export type SelectionService = ReturnType<typeof createSelectionService>;

/**
 * Call 3's reads in one round trip: the session touched (bound to the RUT), the member with that RUT and the member's
 * products of the family, with all their instalments. No row: no live session for that token and RUT.
 */
const sessionMemberProducts = preparedPerHandle('selection_session_member_products', (db) => {
  const touched = db.$with('touched').as(touch(db, true));
  return db
    .with(touched)
    .select({ sessionId: touched.id, memberId: members.id, products: productsOfMemberInFamily.as('products') })
    .from(touched)
    .leftJoin(members, eq(members.rut, touched.rut));
});

export interface SessionMemberProducts {
  session: SessionRow;
  /** Null when no member has the session's RUT. */
  member: { id: string; products: ProductWithInstalments[] } | null;
}

/** Touches the session of `token` bound to `rut` and reads that member's products of `family` (call 3). */
export async function touchSessionWithProducts(db: DbOrTx, token: string, rut: string, timeoutMinutes: number, family: Family): Promise<SessionMemberProducts | null> {
  const [row] = await sessionMemberProducts(db).execute({ ...touchValues(token, rut, timeoutMinutes), family });
  if (!row) return null;
  return {
    session: { id: row.sessionId, rut },
    member: row.memberId === null ? null : { id: row.memberId, products: decodeProductsWithInstalments(row.products) },
  };
}

export function createSelectionService(db: Db, clock: Clock) {
  return {
    /** Call 3: re-validates the whole selection and stores a pending transaction with the server's total. */
    async select(request: Request, requestId: string): Promise<SelectResult> {
      const rut = canonicalRut(request.rut);
      if (!rut) return { ok: false, codigo: '476' };
      const params = toParameterMap(await listParameters(db));
      const family = request.producto[0]!.tipoFamiliaProducto;
      const found = await touchSessionWithProducts(db, request.token, rut, Number(params.sessionTimeOut ?? 5), family);
      if (!found) return { ok: false, codigo: '476' };
      const { session, member } = found;

      if (request.producto.some((p) => p.tipoFamiliaProducto !== family)) return { ok: false, codigo: '477' };
      if (params.Mantencion === '1') return { ok: false, codigo: '503' };
      if (params[familySwitchName(family)] !== '1') return { ok: false, codigo: '49010' };
      const now = clock();
      if (params.CierreDiario === '1' || isUnavailableHour(family, now)) return { ok: false, codigo: '4953' };

      if (!member) return { ok: false, codigo: '47678' };
      const outcome = validateSelection(request.producto, {
        family,
        today: businessToday(now),
        graceDays: Number(params[graceDaysName(family)] ?? 0),
        owned: member.products,
      });
      if (!outcome.ok) {
        await appendAudit(db, { kind: 'seleccion.rechazada', rutMasked: maskRut(rut), requestId, detail: { codigo: outcome.codigo, family } });
        return outcome;
      }

      const idTransaccion = newTransactionId();
      // The transaction and its items in one statement: atomic without BEGIN and COMMIT, two round trips of their own.
      await inOneStatement(
        db,
        [db.insert(transactions).values({ idTransaccion, sessionId: session.id, memberId: member.id, family, total: outcome.total })],
        db.insert(transactionItems).values(outcome.items.map((item) => ({ idTransaccion, ...item }))),
      );
      return { ok: true, idTransaccion, total: outcome.total };
    },
  };
}
