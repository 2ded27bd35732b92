import { businessToday } from '@pago/domain/business-time';
import type { Producto } from '@pago/domain/products';
import { isKnownCode } from '@pago/domain/errors';
import { maskRut } from '@pago/domain/rut';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { appendAudit } from '../repositories/audit-repository';
import { spendCaptcha } from '../repositories/captcha-repository';
import { memberWithListedProducts } from '../repositories/product-repository';
import { openSession } from '../repositories/session-repository';
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
     * session, in one database transaction, so a replayed solution reads and opens nothing. A RUT that is not a
     * member gets the same answer as a member with nothing to pay (a session and an empty list), so the list does
     * not tell who is a member.
     */
    async list(rut: string, requestId: string, spend: CaptchaSpend): Promise<ListResult> {
      const { token, tokenHash } = newSessionToken();
      const found = await db.transaction(async (tx) => {
        if (!(await spendCaptcha(tx, spend.signature, spend.expiresAt))) return null;
        const member = await memberWithListedProducts(tx, rut);
        if (member?.listNoticeCode) return { notice: member.listNoticeCode };
        return { sessionId: await openSession(tx, tokenHash, rut), products: member?.products ?? [] };
      });
      if (!found) return { ok: false, replayed: true };
      if ('notice' in found) {
        await appendAudit(db, { kind: 'listar.aviso', rutMasked: maskRut(rut), requestId, detail: { codigo: found.notice } });
        // A notice the catalogue does not know cannot be shown: the member gets the generic failure instead.
        return refuse(isKnownCode(found.notice) ? found.notice : '500');
      }
      const today = businessToday(clock());
      const productos = found.products.map((row) => toWireProduct(row, today, found.sessionId)).filter((p): p is Producto => p !== null);
      return { ok: true, token, productos };
    },
  };
}
