/** The books as a page for a person: plain tables, Spanish labels. */

const escape = (text: unknown) =>
  String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const clp = (n: unknown) => `$${String(Math.trunc(Number(n))).replace(/\B(?=(\d{3})+(?!\d))/g, '.')}`;
const day = (wire: unknown) => {
  const w = String(wire);
  return `${w.slice(6, 8)}/${w.slice(4, 6)}/${w.slice(0, 4)}`;
};

function table(caption: string, headers: string[], rows: unknown[][]): string {
  const head = headers.map((h) => `<th scope="col">${escape(h)}</th>`).join('');
  const body = rows.length === 0 ? `<tr><td colspan="${headers.length}">Sin registros</td></tr>` : rows.map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`).join('');
  return `<table><caption>${escape(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

interface PageBooks {
  today: string;
  clients: { id: number; externalId: string; displayName: string }[];
  savings: {
    id: number;
    externalId: string;
    clientId: number;
    productName: string;
    balance: number;
    transactions: { id: number; type: string; amount: number; date: string; reversed: boolean; receiptNumber?: string }[];
    plan?: { numeroCuota: number; monto: number; dueDate: string; outstanding?: number }[];
    statement?: { monto: number; pagoMinimo: number; deudaTotal: number; dueDate: string; owed: { monto: number; pagoMinimo: number; deudaTotal: number } | null };
  }[];
  loans: { id: number; externalId: string; clientId: number; productName: string; totalOutstanding: number; periods: unknown[]; transactions: { id: number; amount: number; date: string; externalId?: string; reversed: boolean }[] }[];
  writes: { at: string; method: string; path: string; idempotencyKey: string | null; statusCode: number; note?: string }[];
}

export function booksPage(books: PageBooks): string {
  const sections: string[] = [];
  sections.push(table('Socios (clientes)', ['Id', 'RUT (externalId)', 'Nombre'], books.clients.map((c) => [c.id, c.externalId, c.displayName])));
  sections.push(table('Cuentas de ahorro', ['Id', 'Número (externalId)', 'Cliente', 'Producto', 'Saldo'], books.savings.map((s) => [s.id, s.externalId, s.clientId, s.productName, clp(s.balance)])));
  for (const s of books.savings.filter((x) => x.plan)) {
    sections.push(table(`Plan de cuotas de participación ${s.externalId}`, ['Cuota', 'Monto', 'Vencimiento', 'Pendiente'], s.plan!.map((c) => [c.numeroCuota, clp(c.monto), day(c.dueDate), clp(c.outstanding)])));
  }
  for (const s of books.savings.filter((x) => x.statement)) {
    const st = s.statement!;
    sections.push(table(`Estado de cuenta tarjeta ${s.externalId}`, ['Facturado', 'Pago mínimo', 'Deuda total', 'Vencimiento', 'Facturado pendiente', 'Deuda pendiente'], [[clp(st.monto), clp(st.pagoMinimo), clp(st.deudaTotal), day(st.dueDate), clp(st.owed?.monto), clp(st.owed?.deudaTotal)]]));
  }
  const movements = books.savings.flatMap((s) => s.transactions.map((t) => [s.externalId, t.id, t.type === 'deposit' ? 'Depósito' : 'Giro', clp(t.amount), day(t.date), t.receiptNumber ?? '', t.reversed ? 'Sí' : 'No']));
  sections.push(table('Movimientos de ahorro', ['Cuenta', 'Id', 'Tipo', 'Monto', 'Fecha', 'Comprobante', 'Reversado'], movements));
  sections.push(table('Créditos', ['Id', 'Número (externalId)', 'Cliente', 'Producto', 'Saldo pendiente'], books.loans.map((l) => [l.id, l.externalId, l.clientId, l.productName, clp(l.totalOutstanding)])));
  for (const l of books.loans) {
    const periods = l.periods as { period: number; dueDate: number[]; totalDueForPeriod: number; totalOutstandingForPeriod: number; complete: boolean }[];
    sections.push(table(`Cuotas del crédito ${l.externalId}`, ['Cuota', 'Vencimiento', 'Monto', 'Pendiente', 'Pagada'], periods.map((p) => [p.period, p.dueDate.join('-'), clp(p.totalDueForPeriod), clp(p.totalOutstandingForPeriod), p.complete ? 'Sí' : 'No'])));
  }
  const repayments = books.loans.flatMap((l) => l.transactions.map((t) => [l.externalId, t.id, clp(t.amount), day(t.date), t.externalId ?? '', t.reversed ? 'Sí' : 'No']));
  sections.push(table('Pagos de créditos', ['Crédito', 'Id', 'Monto', 'Fecha', 'externalId', 'Reversado'], repayments));
  sections.push(table('Escrituras recibidas', ['Hora', 'Método', 'Ruta', 'Idempotency-Key', 'Estado', 'Nota'], books.writes.map((w) => [w.at, w.method, w.path, w.idempotencyKey ?? '', w.statusCode, w.note ?? ''])));
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Simulador del core bancario</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;color:#111}table{border-collapse:collapse;margin:1rem 0;width:100%}caption{text-align:left;font-weight:600;padding:.25rem 0}th,td{border:1px solid #999;padding:.25rem .5rem;text-align:left}th{background:#eee}</style>
</head><body><main><h1>Simulador del core bancario (Fineract)</h1><p>Fecha de negocio: ${escape(day(books.today))}. Datos en JSON: <a href="/__sim/books">/__sim/books</a>; extracto: <a href="/__sim/extract">/__sim/extract</a>.</p>${sections.join('\n')}</main></body></html>`;
}
