import { AUTHORISATION_SECONDS } from '@pago/domain/call-cuenta-vista';
import type { WebhookBody } from '@pago/domain/schemas/call-autorizador';
import { FAMILY_NAMES, type Family } from '@pago/domain/families';
import { maskProductNumber } from '@pago/domain/products';
import { randomBytes } from 'node:crypto';
import type { Tx } from '../db/client';
import * as devices from '../repositories/authoriser-repository';
import * as authorizations from '../repositories/authorization-repository';
import * as members from '../repositories/member-repository';
import { productNumbersOf, type TransactionRow } from '../repositories/transaction-repository';
import { maskAccount } from './payment-service';
import { refuse, type Refusal } from './refusal';

// Factor 2 as calls 5 and 6 see it (docs/authoriser.md): the push a member's device is asked to sign, and whether
// that device may still approve.

/**
 * Call 5: a push for the payer's active device, fixing now what the device shows and signs; queued for the app's
 * backend too when a webhook is configured. '7' when the payer's device was revoked, '5203004' when they never enrolled.
 */
export async function createPush(
  tx: Tx,
  p: { trx: TransactionRow; payerId: string; payerRut: string; numeroCuenta: string; notifyDevices: boolean },
): Promise<{ ok: true } | Refusal<'7' | '5203004'>> {
  const { device } = await members.accountAndFactorsOf(tx, p.payerId);
  if (!device) return refuse((await devices.hasRevokedDevice(tx, p.payerId)) ? '7' : '5203004');
  const productos = (await productNumbersOf(tx, p.trx.idTransaccion)).map(maskProductNumber);
  const push = { cuenta: maskAccount(p.numeroCuenta), productos, rutPagador: p.payerRut, descripcion: FAMILY_NAMES[p.trx.family as Family] };
  const created = await authorizations.insertAuthorization(tx, {
    idTransaccion: p.trx.idTransaccion,
    memberId: p.payerId,
    factor: 2,
    amount: p.trx.total,
    validSeconds: AUTHORISATION_SECONDS,
    push,
    nonce: randomBytes(32).toString('base64url'),
  });
  if (p.notifyDevices) {
    const body: WebhookBody = { evento: 'solicitud', dispositivo: device.id, solicitud: created.id, expira: created.expiresAt.toISOString() };
    await devices.enqueueWebhook(tx, { authorizationId: created.id, body, expiresAt: created.expiresAt });
  }
  return { ok: true };
}

/** Call 6: whether the device that approved this push, or for a push still waiting the member's device, is active. */
export async function pushDeviceActive(tx: Tx, auth: authorizations.AuthorizationRow): Promise<boolean> {
  if (auth.status === 'approved') return auth.deviceId !== null && (await devices.isActiveDevice(tx, auth.deviceId));
  if (auth.status === 'pending') return (await members.accountAndFactorsOf(tx, auth.memberId)).device !== null;
  return true;
}
