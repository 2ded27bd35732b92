import { parse } from 'csv-parse/sync';

/**
 * Reads a nightly load file into the import call's rows. JSON: `{"socios": [...]}` or a bare list. CSV: one row per
 * instalment (or per product / member without any), grouped here by RUT and product:
 * rut,nombre,correo,numeroCuenta,saldoCuenta,familia,numeroProducto,numeroCuota,monto,montoPendiente,pagoMinimo,
 * fechaVencimiento,medioPago,permiteAbono,permiteMultipleAbono,montoMinimoAbonoMultiple,fechaVigenciaAbono,saldo.
 * A filled `codigoEnrolamiento` cell is passed on so that its row is refused with the reason, not dropped unseen.
 */
export function readLoad(fileName: string, text: string): unknown[] {
  return readLoadWithCut(fileName, text).socios;
}

/** The load's rows and, for a JSON extract `{"corte": …, "socios": [...]}`, when the core took it. */
export function readLoadWithCut(fileName: string, text: string): { corte?: string; socios: unknown[] } {
  if (fileName.toLowerCase().endsWith('.json')) {
    const data: unknown = JSON.parse(text);
    if (Array.isArray(data)) return { socios: data };
    if (data && typeof data === 'object' && Array.isArray((data as { socios?: unknown }).socios)) {
      const { corte, socios } = data as { corte?: unknown; socios: unknown[] };
      return { ...(typeof corte === 'string' && { corte }), socios };
    }
    throw new Error('JSON load must be a list or {"corte": "...", "socios": [...]}');
  }
  return { socios: readCsv(text) };
}

function readCsv(text: string): unknown[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
  const bool = (v: string | undefined) => (v === undefined || v === '' ? undefined : ['1', 'true', 'si', 'sí'].includes(v.toLowerCase()));
  const byRut = new Map<string, Record<string, unknown> & { productos: Record<string, unknown>[] }>();
  for (const row of rows) {
    const rut = row.rut ?? '';
    let member = byRut.get(rut);
    if (!member) {
      member = { rut, nombre: row.nombre, ...(row.correo ? { correo: row.correo } : {}), ...(row.codigoEnrolamiento ? { codigoEnrolamiento: row.codigoEnrolamiento } : {}), productos: [] };
      if (row.numeroCuenta) member.cuenta = { numeroCuenta: row.numeroCuenta, saldo: num(row.saldoCuenta) ?? 0 };
      byRut.set(rut, member);
    }
    if (!row.numeroProducto) continue;
    let product = member.productos.find((p) => p.numeroProducto === row.numeroProducto) as (Record<string, unknown> & { cuotas: unknown[] }) | undefined;
    if (!product) {
      product = {
        familia: row.familia,
        numeroProducto: row.numeroProducto,
        ...(bool(row.permiteAbono) !== undefined ? { permiteAbono: bool(row.permiteAbono) } : {}),
        ...(bool(row.permiteMultipleAbono) !== undefined ? { permiteMultipleAbono: bool(row.permiteMultipleAbono) } : {}),
        ...(num(row.montoMinimoAbonoMultiple) !== undefined ? { montoMinimoAbonoMultiple: num(row.montoMinimoAbonoMultiple) } : {}),
        ...(row.fechaVigenciaAbono ? { fechaVigenciaAbono: row.fechaVigenciaAbono } : {}),
        ...(num(row.saldo) !== undefined ? { saldo: num(row.saldo) } : {}),
        cuotas: [],
      };
      member.productos.push(product);
    }
    if (row.numeroCuota) {
      product.cuotas.push({
        numeroCuota: num(row.numeroCuota),
        monto: num(row.monto),
        ...(num(row.montoPendiente) !== undefined ? { montoPendiente: num(row.montoPendiente) } : {}),
        ...(num(row.pagoMinimo) !== undefined ? { pagoMinimo: num(row.pagoMinimo) } : {}),
        fechaVencimiento: row.fechaVencimiento,
        ...(row.medioPago ? { medioPago: row.medioPago } : {}),
      });
    }
  }
  return [...byRut.values()];
}
