import { isUnavailableHour } from '@pago/domain/business-time';
import { businessToday } from '@pago/domain/business-time';
import type { SeleccionarProductoRequest } from '@pago/domain/call-seleccionar';
import { toParameterMap, graceDaysName, familySwitchName } from '@pago/domain/parameters';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { inOneStatement } from '../db/one-statement';
import { transactionItems, transactions } from '../db/schema';
import { appendAudit } from '../repositories/audit-repository';
import { listParameters } from '../repositories/parameters-repository';
import { findMemberByRut, loadMemberProducts } from '../repositories/product-repository';
import { validateSelection } from './selection-rules';
import { touchSession } from './session-service';

type Request = SeleccionarProductoRequest['seleccionarProductoRequest'];
export type SelectResult = { ok: true; idTransaccion: string; total: number } | { ok: false; codigo: string };

/** 128 random bits: a transaction id cannot be guessed from another. */
export const newTransactionId = () => randomBytes(16).toString('hex');

export type SelectionService = ReturnType<typeof createSelectionService>;

export function createSelectionService(db: Db, clock: Clock) {
  return {
    /** Call 3: re-validates the whole selection and stores a pending transaction with the server's total. */
    async select(request: Request, requestId: string): Promise<SelectResult> {
      const rut = canonicalRut(request.rut);
      if (!rut) return { ok: false, codigo: '476' };
      const params = toParameterMap(await listParameters(db));
      const session = await touchSession(db, request.token, rut, Number(params.sessionTimeOut ?? 5));
      if (!session) return { ok: false, codigo: '476' };

      const family = request.producto[0]!.tipoFamiliaProducto;
      if (request.producto.some((p) => p.tipoFamiliaProducto !== family)) return { ok: false, codigo: '477' };
      if (params.Mantencion === '1') return { ok: false, codigo: '503' };
      if (params[familySwitchName(family)] !== '1') return { ok: false, codigo: '49010' };
      const now = clock();
      if (params.CierreDiario === '1' || isUnavailableHour(family, now)) return { ok: false, codigo: '4953' };

      const member = await findMemberByRut(db, rut);
      if (!member) return { ok: false, codigo: '47678' };
      const owned = await loadMemberProducts(db, member.id, family);
      const outcome = validateSelection(request.producto, {
        family,
        today: businessToday(now),
        graceDays: Number(params[graceDaysName(family)] ?? 0),
        owned,
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
