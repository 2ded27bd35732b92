import { businessToday } from '@pago/domain/business-time';
import type { Producto } from '@pago/domain/products';
import { isKnownCode } from '@pago/domain/errors';
import { maskRut } from '@pago/domain/rut';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { spendAndListProducts } from '../repositories/product-repository';
import type { CaptchaSpend } from './captcha-service';
import { toWireProduct } from './product-view';
import { refuse, type Refusal } from './refusal';
import { newSessionToken } from './session-service';

export type ListResult = { ok: true; token: string; productos: Producto[] } | Refusal | { ok: false; replayed: true };

export type ProductService = ReturnType<typeof createProductService>;

export function createProductService(db: Db, clock: Clock) {
  return {
    /**
     * Call 2, once its captcha is verified (`spend`): spends the captcha, reads the member's products and opens a
     * session, in one statement, so a replayed solution reads and opens nothing. A RUT that is not a member gets the
     * same answer as a member with nothing to pay (a session and an empty list), so the list does not tell who is a
     * member.
     */
    async list(rut: string, requestId: string, spend: CaptchaSpend): Promise<ListResult> {
      const { token, tokenHash } = newSessionToken();
      const listing = await spendAndListProducts(db, spend, rut, tokenHash);
      if (!listing) return { ok: false, replayed: true };
      if ('notice' in listing) {
        await appendAudit(db, { kind: 'listar.aviso', rutMasked: maskRut(rut), requestId, detail: { codigo: listing.notice } });
        // A notice the catalogue does not know cannot be shown: the member gets the generic failure instead.
        return refuse(isKnownCode(listing.notice) ? listing.notice : '500');
      }
      const today = businessToday(clock());
      const productos = listing.products.map((row) => toWireProduct(row, today, listing.sessionId)).filter((p): p is Producto => p !== null);
      return { ok: true, token, productos };
    },
  };
}
