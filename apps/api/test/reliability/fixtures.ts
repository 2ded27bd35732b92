import { hash } from '@node-rs/argon2';
import { addDaysWire } from '@pago/domain/dates';
import type { Family } from '@pago/domain/families';
import type { Db } from '../../src/db/client';
import { demoCoordinateCard, type DemoMember } from '@pago/domain/demo-members';
import { PASSWORD_HASH_OPTIONS } from '../../src/db/password';
import { accounts, coordinateCards, instalments, members, products } from '../../src/db/schema';

/** Check digit of a RUT body (módulo 11). */
export function rutDv(body: number): string {
  let sum = 0;
  let factor = 2;
  for (const digit of String(body).split('').reverse()) {
    sum += Number(digit) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 11 ? '0' : dv === 10 ? 'K' : String(dv);
}

export const rutOf = (body: number) => `${body}-${rutDv(body)}`;

export interface LoadMember {
  rut: string;
  email: string;
  numeroCuenta: string;
  saldo: number;
  /** numeroProducto per family. */
  products: Partial<Record<Family, string>>;
}

export const LOAD_PASSWORD = 'Carga#24';

const wireToIso = (wire: string) => `${wire.slice(0, 4)}-${wire.slice(4, 6)}-${wire.slice(6, 8)}`;

/** A small deterministic generator, so a failing run can be replayed member for member. */
function seeded(seed: number) {
  let s = seed >>> 0 || 1;
  return (max: number) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % max;
  };
}

/**
 * Members for the load tests, beside the demo members: each with an own account (some too poor for what they will
 * try), a coordinate card from the demo formula, a consumer credit of 4 instalments, a MYPE credit of 3, 6
 * participation shares and a savings account. Due dates are current on `today` (yyyymmdd).
 */
export async function insertLoadMembers(db: Db, count: number, today: string, firstBody = 30_000_000): Promise<LoadMember[]> {
  const passwordHash = await hash(LOAD_PASSWORD, PASSWORD_HASH_OPTIONS);
  const day = (offset: number) => wireToIso(addDaysWire(today, offset));
  const created: LoadMember[] = [];
  for (const profile of loadMemberProfiles(count, firstBody)) {
    const member: LoadMember = {
      rut: profile.rut,
      email: profile.email,
      numeroCuenta: profile.account!.numeroCuenta,
      saldo: profile.account!.saldo,
      products: Object.fromEntries(profile.products.map((p) => [p.family, p.numeroProducto])),
    };
    await db.transaction(async (tx) => {
      const [m] = await tx.insert(members).values({ rut: profile.rut, name: profile.name, email: profile.email, passwordHash }).returning({ id: members.id });
      const memberId = m!.id;
      await tx.insert(accounts).values({ memberId, ...profile.account! });
      await tx.insert(coordinateCards).values({ memberId, serial: `CC-L${profile.rut.split('-')[0]!.padStart(8, '0')}`, cells: demoCoordinateCard(profile.rut) });
      for (const product of profile.products) {
        const amounts = product.instalments.map((i) => i.monto);
        const [p] = await tx
          .insert(products)
          .values({ memberId, family: product.family, numeroProducto: product.numeroProducto, deudaTotal: amounts.reduce((sum, a) => sum + a, 0), numeroCuotasPactadas: amounts.length, saldo: product.saldo ?? 0 })
          .returning({ id: products.id });
        if (product.instalments.length === 0) continue;
        await tx.insert(instalments).values(
          product.instalments.map((i) => ({ productId: p!.id, numeroCuota: i.numeroCuota, montoOriginal: i.monto, montoPendiente: i.monto, pagoMinimo: i.monto, fechaVencimiento: day(i.dueInDays) })),
        );
      }
    });
    created.push(member);
  }
  return created;
}

/**
 * The load members as the demo members are described, so that the core simulator holds the same accounts,
 * schedules and balances (startCoreSim's `members`). Deterministic: the same count and first RUT give the same ones.
 */
export function loadMemberProfiles(count: number, firstBody = 30_000_000): DemoMember[] {
  const rand = seeded(firstBody + count);
  const monthly = (amounts: number[], firstDue: number) => amounts.map((monto, k) => ({ numeroCuota: k + 1, monto, dueInDays: firstDue + 30 * k }));
  return Array.from({ length: count }, (_, i) => {
    const body = firstBody + i;
    const tag = String(body).padStart(8, '0');
    const saldo = 60_000 + rand(40) * 10_000;
    const pc = Array.from({ length: 4 }, () => 20_000 + rand(60) * 1_000);
    const pm = Array.from({ length: 3 }, () => 30_000 + rand(90) * 1_000);
    return {
      rut: rutOf(body),
      name: `Socio de carga ${i + 1}`,
      email: `socio.${tag}@carga.example`,
      scenario: 'load',
      password: { plain: LOAD_PASSWORD },
      account: { numeroCuenta: `9${tag}001`, saldo },
      factors: [1],
      products: [
        { family: 'PC', numeroProducto: `49${tag}01`, instalments: monthly(pc, 6) },
        { family: 'PM', numeroProducto: `69${tag}01`, instalments: monthly(pm, 8) },
        { family: 'CP', numeroProducto: `79${tag}01`, instalments: monthly(Array.from({ length: 6 }, () => 5_000), 5) },
        { family: 'AH', numeroProducto: `89${tag}01`, saldo: 100_000, instalments: [] },
      ],
    };
  });
}
