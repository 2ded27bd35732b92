import { hash } from '@node-rs/argon2';
import { addDaysWire } from '@pago/domain/dates';
import type { Family } from '@pago/domain/families';
import type { Db } from '../db/client';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { PASSWORD_HASH_OPTIONS } from '../db/password';
import { accounts, coordinateCards, instalments, members, products } from '../db/schema';

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
  const rand = seeded(firstBody + count);
  const day = (offset: number) => wireToIso(addDaysWire(today, offset));
  const created: LoadMember[] = [];
  for (let i = 0; i < count; i++) {
    const body = firstBody + i;
    const rut = rutOf(body);
    const tag = String(body).padStart(8, '0');
    const saldo = 60_000 + rand(40) * 10_000;
    const member: LoadMember = {
      rut,
      email: `socio.${tag}@carga.example`,
      numeroCuenta: `9${tag}001`,
      saldo,
      products: { PC: `49${tag}01`, PM: `69${tag}01`, CP: `79${tag}01`, AH: `89${tag}01` },
    };
    await db.transaction(async (tx) => {
      const [m] = await tx
        .insert(members)
        .values({ rut, name: `Socio de carga ${i + 1}`, email: member.email, passwordHash })
        .returning({ id: members.id });
      const memberId = m!.id;
      await tx.insert(accounts).values({ memberId, numeroCuenta: member.numeroCuenta, saldo });
      await tx.insert(coordinateCards).values({ memberId, serial: `CC-L${tag}`, cells: demoCoordinateCard(rut) });
      const credit = async (family: Family, numeroProducto: string, amounts: number[], firstDue: number) => {
        const [p] = await tx
          .insert(products)
          .values({ memberId, family, numeroProducto, deudaTotal: amounts.reduce((s, a) => s + a, 0), numeroCuotasPactadas: amounts.length })
          .returning({ id: products.id });
        await tx.insert(instalments).values(
          amounts.map((monto, k) => ({
            productId: p!.id,
            numeroCuota: k + 1,
            montoOriginal: monto,
            montoPendiente: monto,
            pagoMinimo: monto,
            fechaVencimiento: day(firstDue + 30 * k),
          })),
        );
      };
      await credit('PC', member.products.PC!, Array.from({ length: 4 }, () => 20_000 + rand(60) * 1_000), 6);
      await credit('PM', member.products.PM!, Array.from({ length: 3 }, () => 30_000 + rand(90) * 1_000), 8);
      await credit('CP', member.products.CP!, Array.from({ length: 6 }, () => 5_000), 5);
      await tx.insert(products).values({ memberId, family: 'AH', numeroProducto: member.products.AH!, saldo: 100_000 });
    });
    created.push(member);
  }
  return created;
}
