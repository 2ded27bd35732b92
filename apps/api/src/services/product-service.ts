import { businessToday } from '@pago/domain/business-time';
import type { Producto } from '@pago/domain/products';
import { maskRut } from '@pago/domain/rut';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { findMemberWithProducts } from '../repositories/product-repository';
import { toWireProduct } from './product-view';
import { createSession } from './session-service';

export type ListResult = { ok: true; token: string; productos: Producto[] } | { ok: false; codigo: string };

export type ProductService = ReturnType<typeof createProductService>;

export function createProductService(db: Db, clock: Clock) {
  return {
    /**
     * Call 2. A RUT that is not a member gets the same answer as a member with nothing to pay (a session and an
     * empty list), so the list does not tell who is a member.
     */
    async list(rut: string, requestId: string): Promise<ListResult> {
      // One statement: the member and everything they owe, from one snapshot.
      const found = await findMemberWithProducts(db, rut);
      const notice = found?.member.listNoticeCode;
      if (notice) {
        await appendAudit(db, { kind: 'listar.aviso', rutMasked: maskRut(rut), requestId, detail: { codigo: notice } });
        return { ok: false, codigo: notice };
      }
      const today = businessToday(clock());
      const rows = found?.products ?? [];
      const productos = rows.map((row) => toWireProduct(row, today)).filter((p): p is Producto => p !== null);
      const { token } = await createSession(db, rut);
      return { ok: true, token, productos };
    },
  };
}
