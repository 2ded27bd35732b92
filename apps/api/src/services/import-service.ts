import { familySchema } from '@pago/domain/schemas/wire';
import { isWireDate, wireToIso } from '@pago/domain/dates';
import { MAX_AMOUNT } from '@pago/domain/money';
import { emailHint } from '@pago/domain/email';
import { canonicalRut, maskRut } from '@pago/domain/rut';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db, Tx } from '../db/client';
import { databaseFailure, loggableError } from '../loggable-error';
import { appendAudit } from '../repositories/audit-repository';
import { enqueueMail } from '../repositories/mail-queue-repository';
import * as members from '../repositories/member-repository';
import * as products from '../repositories/product-repository';
import { instalmentKey, unreflectedSince } from '../repositories/core-operation-repository';
import { textMail } from './mail-service';

type Unreflected = Awaited<ReturnType<typeof unreflectedSince>>;

// Amounts stay numbers that hold every peso exactly: a larger one is refused here, as a row's own fault.
const money = z.number().max(MAX_AMOUNT, 'monto fuera de rango').pipe(z.number().int().min(0));
// PostgreSQL text holds no NUL, and the drivers would store a lone UTF-16 surrogate as U+FFFD: the core system's
// row is refused rather than stored with a character it did not send.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storableText = (value: string) => !value.includes('\u0000') && !LONE_SURROGATE.test(value);
const wireDate = z.string().refine(isWireDate, 'fecha yyyymmdd inválida');

/** One member as the core system's nightly load sends it. */
export const importedMemberSchema = z
  .object({
    rut: z.string().refine((v) => canonicalRut(v) !== null, 'RUT inválido'),
    nombre: z.string().min(1).max(120).refine(storableText, 'caracteres no válidos'),
    correo: z.email().max(254).optional(),
    // Nothing a load sends lets a phone or a person act for the member: enrolment codes come from the console only.
    codigoEnrolamiento: z.never({ error: 'no se acepta en la carga: el código de enrolamiento se genera en la consola' }).optional(),
    cuenta: z.object({ numeroCuenta: z.string().regex(/^\d{6,20}$/), saldo: money }).strict().optional(),
    productos: z
      .array(
        z
          .object({
            familia: familySchema,
            numeroProducto: z.string().regex(/^\d{6,20}$/),
            permiteAbono: z.boolean().default(false),
            permiteMultipleAbono: z.boolean().default(false),
            montoMinimoAbonoMultiple: money.default(0),
            fechaVigenciaAbono: wireDate.optional(),
            fechaFacturacion: wireDate.optional(),
            deudaTotal: money.optional(),
            cupoTotal: money.default(0),
            numeroCuotasPactadas: z.number().int().min(0).max(1000).default(0),
            saldo: money.default(0),
            cuotas: z
              .array(
                z
                  .object({
                    numeroCuota: z.number().int().min(0).max(1000),
                    monto: money,
                    montoPendiente: money.optional(),
                    pagoMinimo: money.optional(),
                    fechaVencimiento: wireDate,
                    medioPago: z.enum(['CONVENIO']).optional(),
                  })
                  .strict()
                  .refine((c) => (c.montoPendiente ?? c.monto) <= c.monto, 'montoPendiente mayor que monto'),
              )
              .max(600)
              .default([]),
          })
          .strict()
          .refine((p) => p.deudaTotal !== undefined || p.cuotas.reduce((sum, c) => sum + (c.montoPendiente ?? c.monto), 0) <= MAX_AMOUNT, 'deuda total fuera de rango'),
      )
      .max(50)
      .default([]),
  })
  .strict();
export type ImportedMember = z.infer<typeof importedMemberSchema>;

/** The audit kinds of a member a load created or changed (its name or e-mail). */
const MEMBER_CREATED = 'importacion.socio.creado';
const MEMBER_CHANGED = 'importacion.socio.cambiado';

/** The notice to the address a load replaced: where mail goes now, only hinted (it may reach someone else). */
function emailChangedMail(to: string, newEmail: string | null, cooperative: string) {
  return textMail(to, `${cooperative}: cambió tu correo registrado`, [
    `${cooperative} - Pago Online`,
    newEmail ? `Tu correo registrado cambió a ${emailHint(newEmail)}.` : 'Tu correo registrado fue eliminado.',
    'Desde ahora no enviaremos comprobantes ni avisos a esta dirección.',
    'Si no pediste este cambio, contáctanos.',
  ]);
}

export interface ImportReport {
  recibidos: number;
  aceptados: number;
  rechazados: { fila: number; rut: string; motivos: string[] }[];
}

export type ImportService = ReturnType<typeof createImportService>;

/**
 * The nightly load from the core system: each member is validated on its own and written in its own database
 * transaction (a bad row is reported, never half-written, and never stops the others). Upserts by natural keys
 * (RUT, account number, product number, instalment number), so loading the same file twice changes nothing, and
 * the second writes no member's audit line.
 */
export function createImportService(db: Db, options: { cooperative: string }) {
  /**
   * Writes the member's name and e-mail where they differ from what it holds, in the row's transaction: a created or
   * changed member gets an audit line naming the fields, and a replaced address a notice, sent once this commits.
   */
  async function writeMember(tx: Tx, rut: string, loaded: { name: string; email: string | null }, requestId: string): Promise<{ id: string; outcome: 'creado' | 'cambiado' | null }> {
    let current = await members.lockMemberForLoad(tx, rut);
    if (!current) {
      const id = await members.insertLoadedMember(tx, { rut, ...loaded });
      if (id) {
        await appendAudit(tx, { kind: MEMBER_CREATED, rutMasked: maskRut(rut), requestId, detail: { cambios: loaded.email ? ['nombre', 'correo'] : ['nombre'] } });
        return { id, outcome: 'creado' };
      }
      // Another load inserted the RUT since the look-up: compare with what it wrote.
      current = (await members.lockMemberForLoad(tx, rut))!;
    }
    const cambios = [...(current.name !== loaded.name ? ['nombre'] : []), ...(current.email !== loaded.email ? ['correo'] : [])];
    if (cambios.length === 0) return { id: current.id, outcome: null };
    await members.setMemberContact(tx, current.id, loaded);
    await appendAudit(tx, { kind: MEMBER_CHANGED, rutMasked: maskRut(rut), requestId, detail: { cambios } });
    if (current.email && current.email !== loaded.email) await enqueueMail(tx, emailChangedMail(current.email, loaded.email, options.cooperative));
    return { id: current.id, outcome: 'cambiado' };
  }

  /** Why the row cannot be loaded, read before anything is written: an account or product that is another member's. */
  async function ownershipRefusal(tx: Tx, rut: string, member: ImportedMember): Promise<string | null> {
    const memberId = (await members.findMemberByRut(tx, rut))?.id ?? null;
    if (member.cuenta) {
      const owner = await members.ownerOfAccount(tx, member.cuenta.numeroCuenta);
      if (owner && owner !== memberId) return `la cuenta ${member.cuenta.numeroCuenta} pertenece a otro socio`;
    }
    for (const p of member.productos) {
      const existing = await products.productByNumber(tx, p.numeroProducto);
      if (existing && (existing.memberId !== memberId || existing.family !== p.familia)) return `el producto ${p.numeroProducto} pertenece a otro socio o familia`;
    }
    return null;
  }

  async function upsert(member: ImportedMember, unreflected: Unreflected, requestId: string): Promise<{ ok: true; outcome: 'creado' | 'cambiado' | null } | { ok: false; motivo: string }> {
    const rut = canonicalRut(member.rut)!;
    return db.transaction(async (tx) => {
      const refused = await ownershipRefusal(tx, rut, member);
      if (refused) return { ok: false as const, motivo: refused };
      const { id: memberId, outcome } = await writeMember(tx, rut, { name: member.nombre, email: member.correo ?? null }, requestId);
      if (member.cuenta) {
        // A debit made here that the extract cannot show yet stays made.
        const saldo = Math.max(0, member.cuenta.saldo - (unreflected.accounts.get(member.cuenta.numeroCuenta) ?? 0));
        await members.upsertAccount(tx, { memberId, numeroCuenta: member.cuenta.numeroCuenta, saldo });
      }
      for (const p of member.productos) {
        const existing = await products.productByNumber(tx, p.numeroProducto);
        const moved = existing ? unreflected.products.get(existing.id) : undefined;
        const deudaTotal = p.deudaTotal ?? p.cuotas.reduce((sum, c) => sum + (c.montoPendiente ?? c.monto), 0);
        const productId = await products.upsertProduct(tx, {
          memberId,
          family: p.familia,
          numeroProducto: p.numeroProducto,
          permiteAbono: p.permiteAbono,
          permiteMultipleAbono: p.permiteMultipleAbono,
          montoMinimoAbonoMultiple: p.montoMinimoAbonoMultiple,
          fechaVigenciaAbono: p.fechaVigenciaAbono ? wireToIso(p.fechaVigenciaAbono) : null,
          fechaFacturacion: p.fechaFacturacion ? wireToIso(p.fechaFacturacion) : null,
          deudaTotal: Math.max(0, deudaTotal - (moved?.debt ?? 0)),
          cupoTotal: p.cupoTotal,
          numeroCuotasPactadas: p.numeroCuotasPactadas,
          saldo: Math.min(MAX_AMOUNT, p.saldo + (moved?.credit ?? 0)),
        });
        for (const c of p.cuotas) {
          // Paid here and not yet in the extract: it stays paid (or as reduced) until the core's data shows it.
          const paidHere = unreflected.instalments.get(instalmentKey(productId, c.numeroCuota)) ?? 0;
          await products.upsertInstalment(tx, {
            productId,
            numeroCuota: c.numeroCuota,
            montoOriginal: c.monto,
            montoPendiente: Math.max(0, (c.montoPendiente ?? c.monto) - paidHere),
            pagoMinimo: Math.max(0, (c.pagoMinimo ?? c.monto) - paidHere),
            fechaVencimiento: wireToIso(c.fechaVencimiento),
            medioPago: c.medioPago ?? null,
          });
        }
      }
      return { ok: true as const, outcome };
    });
  }

  return {
    /**
     * Loads the core's extract taken at `corte`. What was paid here and is not in it yet (a posting the core
     * acknowledged after the cut, or still in the outbox) is taken off what the extract says is owed or held, so
     * no load shows a paid instalment as owed again or undoes a debit (docs/decisions/030-loads-never-undo-a-payment.md).
     */
    async importMembers(rows: unknown[], corte: Date, requestId: string, log?: FastifyBaseLogger): Promise<ImportReport> {
      const report: ImportReport = { recibidos: rows.length, aceptados: 0, rechazados: [] };
      const socios = { creados: 0, cambiados: 0 };
      const unreflected = await unreflectedSince(db, corte);
      for (const [index, raw] of rows.entries()) {
        const rutHint = typeof (raw as { rut?: unknown })?.rut === 'string' ? (raw as { rut: string }).rut : '';
        const masked = canonicalRut(rutHint) ? maskRut(canonicalRut(rutHint)!) : '';
        const parsed = importedMemberSchema.safeParse(raw);
        if (!parsed.success) {
          report.rechazados.push({ fila: index + 1, rut: masked, motivos: parsed.error.issues.map((i) => `${i.path.join('.') || 'fila'}: ${i.message}`) });
          continue;
        }
        try {
          const result = await upsert(parsed.data, unreflected, requestId);
          if (!result.ok) {
            report.rechazados.push({ fila: index + 1, rut: masked, motivos: [result.motivo] });
            continue;
          }
          const { outcome } = result;
          report.aceptados++;
          if (outcome === 'creado') socios.creados++;
          if (outcome === 'cambiado') socios.cambiados++;
        } catch (error) {
          // With the database gone every later row would fail too: the call fails (503) and the idempotent load is
          // sent again.
          if (databaseFailure(error) === 'unavailable') throw error;
          // A failed query's message carries the SQL and the row's values (the RUT among them): the log gets it
          // scrubbed, the operator a plain reason.
          log?.error({ fila: index + 1, error: loggableError(error) }, 'import row not saved');
          report.rechazados.push({ fila: index + 1, rut: masked, motivos: ['la fila no se pudo guardar'] });
        }
      }
      await appendAudit(db, { kind: 'admin.importacion', requestId, detail: { corte: corte.toISOString(), recibidos: report.recibidos, aceptados: report.aceptados, rechazados: report.rechazados.length, ...socios } });
      return report;
    },
  };
}

