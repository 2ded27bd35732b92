import { hash } from '@node-rs/argon2';
import { businessToday } from '@pago/domain/business-time';
import { addDaysWire } from '@pago/domain/dates';
import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { DEFAULT_PARAMETERS, DEMO_MEMBERS, demoCoordinateCard, type DemoMember } from '@pago/domain/demo-members';
import { PASSWORD_HASH_OPTIONS } from './password';
import {
  accounts,
  coordinateCards,
  instalments,
  members,
  parameters,
  products,
} from './schema';

const wireToIso = (wire: string) => `${wire.slice(0, 4)}-${wire.slice(4, 6)}-${wire.slice(6, 8)}`;

/** Every parameter the product reads exists; values already set (by an operator) are kept. */
export async function seedParameters(db: Db): Promise<void> {
  const rows = Object.entries(DEFAULT_PARAMETERS).map(([nombre, valor]) => ({ nombre, valor }));
  await db.insert(parameters).values(rows).onConflictDoNothing();
}

/**
 * Loads the demo members once. A member already present is left untouched, so restarting keeps what was paid;
 * dates are laid out from the business day of the first load.
 */
export async function seedDemoMembers(db: Db, now: Date = new Date()): Promise<number> {
  const today = businessToday(now);
  let created = 0;
  for (const member of DEMO_MEMBERS) {
    const existing = await db.select({ id: members.id }).from(members).where(eq(members.rut, member.rut));
    if (existing.length > 0) continue;
    await insertMember(db, member, today);
    created++;
  }
  return created;
}

async function insertMember(db: Db, member: DemoMember, today: string): Promise<void> {
  const passwordHash = member.password ? await hash(member.password.plain, PASSWORD_HASH_OPTIONS) : null;
  const day = (offset: number) => wireToIso(addDaysWire(today, offset));
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(members)
      .values({
        rut: member.rut,
        name: member.name,
        email: member.email,
        passwordHash,
        passwordBlockedAt: member.password?.blocked ? new Date() : null,
        listNoticeCode: member.listNoticeCode ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: members.id });
    // Another process seeding at the same moment got there first.
    if (!row) return;
    const memberId = row.id;
    if (member.account) {
      await tx.insert(accounts).values({ memberId, ...member.account });
    }
    if (member.factors.includes(1)) {
      await tx.insert(coordinateCards).values({
        memberId,
        serial: `CC-${member.rut.split('-')[0]}`,
        cells: demoCoordinateCard(member.rut),
      });
    }
    for (const product of member.products) {
      const [p] = await tx
        .insert(products)
        .values({
          memberId,
          family: product.family,
          numeroProducto: product.numeroProducto,
          permiteAbono: product.permiteAbono ?? false,
          permiteMultipleAbono: product.permiteMultipleAbono ?? false,
          montoMinimoAbonoMultiple: product.montoMinimoAbonoMultiple ?? 0,
          fechaVigenciaAbono: product.vigenciaAbonoInDays === undefined ? null : day(product.vigenciaAbonoInDays),
          fechaFacturacion: product.facturadoHaceDias === undefined ? null : day(-product.facturadoHaceDias),
          deudaTotal: product.deudaTotal ?? product.instalments.reduce((sum, c) => sum + c.monto, 0),
          deudaTotalInternacional: product.deudaTotalInternacional ?? 0,
          cupoTotal: product.cupoTotal ?? 0,
          numeroCuotasPactadas: product.numeroCuotasPactadas ?? product.instalments.length,
          saldo: product.saldo ?? 0,
        })
        .returning({ id: products.id });
      if (!p) throw new Error('product insert returned nothing');
      if (product.instalments.length > 0) {
        await tx.insert(instalments).values(
          product.instalments.map((c) => ({
            productId: p.id,
            numeroCuota: c.numeroCuota,
            montoOriginal: c.monto,
            montoPendiente: c.monto,
            pagoMinimo: c.pagoMinimo ?? c.monto,
            fechaVencimiento: day(c.dueInDays),
            medioPago: c.medioPago ?? null,
          })),
        );
      }
    }
  });
}
