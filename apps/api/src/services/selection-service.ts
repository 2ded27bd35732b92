import { businessToday } from '@pago/domain/business-time';
import type { SeleccionarProductoRequest } from '@pago/domain/schemas/call-seleccionar';
import { graceDaysName, toParameterMap } from '@pago/domain/parameters';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { findMemberByRut } from '../repositories/member-repository';
import { listParameters } from '../repositories/parameters-repository';
import { productsInFamily } from '../repositories/product-repository';
import { createTransaction, instalmentsInOpenPayments } from '../repositories/transaction-repository';
import { paymentWindowRefusal } from './payment-window';
import { refuse, type Refusal } from './refusal';
import { validateSelection } from './selection-rules';
import { touchSession } from './session-service';

type Request = SeleccionarProductoRequest['seleccionarProductoRequest'];
export type SelectResult = { ok: true; idTransaccion: string; total: number } | Refusal;

/** 128 random bits: a transaction id cannot be guessed from another. */
export const newTransactionId = () => randomBytes(16).toString('hex');

export type SelectionService = ReturnType<typeof createSelectionService>;

export interface SelectionOptions {
  /** How long an opened Webpay form holds its instalments (WEBPAY_SETTLE_AFTER_SECONDS: then it is settled). */
  webpayOpenSeconds: number;
}

export function createSelectionService(db: Db, clock: Clock, options: SelectionOptions) {
  return {
    /** Call 3: re-validates the whole selection and stores a pending transaction with the server's total. */
    async select(request: Request, requestId: string): Promise<SelectResult> {
      const rut = canonicalRut(request.rut);
      if (!rut) return refuse('476');
      const params = toParameterMap(await listParameters(db));
      const family = request.producto[0]!.tipoFamiliaProducto;
      const session = await touchSession(db, request.token, rut, Number(params.sessionTimeOut ?? 5));
      if (!session) return refuse('476');

      if (request.producto.some((p) => p.tipoFamiliaProducto !== family)) return refuse('400');
      const now = clock();
      const closed = paymentWindowRefusal(params, family, now);
      if (closed) return refuse(closed);

      const member = await findMemberByRut(db, rut);
      if (!member) return refuse('47678');
      const outcome = validateSelection(request.producto, {
        family,
        today: businessToday(now),
        graceDays: Number(params[graceDaysName(family)] ?? 0),
        sessionId: session.id,
        owned: await productsInFamily(db, member.id, family),
      });
      if (!outcome.ok) {
        await appendAudit(db, { kind: 'seleccion.rechazada', rutMasked: maskRut(rut), requestId, detail: { codigo: outcome.codigo, family } });
        return outcome;
      }

      // Before anyone pays twice: what another window or session is paying right now cannot be selected again.
      const instalmentIds = outcome.items.flatMap((item) => (item.instalmentId ? [item.instalmentId] : []));
      if ((await instalmentsInOpenPayments(db, instalmentIds, options.webpayOpenSeconds)).size > 0) {
        await appendAudit(db, { kind: 'seleccion.rechazada', rutMasked: maskRut(rut), requestId, detail: { codigo: '443', family } });
        return refuse('443');
      }

      const idTransaccion = newTransactionId();
      await db.transaction((tx) => createTransaction(tx, { idTransaccion, sessionId: session.id, memberId: member.id, family, total: outcome.total }, outcome.items));
      return { ok: true, idTransaccion, total: outcome.total };
    },
  };
}
