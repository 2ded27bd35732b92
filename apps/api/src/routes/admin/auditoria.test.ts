import { demoCoordinateCard } from '@pago/domain/demo-members';
import { describe, expect, it } from 'vitest';
import type { SettableClock } from '../../clock';
import { auditLog } from '../../db/schema';
import { appendAudit } from '../../repositories/audit-repository';
import { errorCode, listProducts, oldest, postAutentica, postAutorizar, postPagar, postSeleccionar } from '../../../test/support/member-calls';
import { asOperator, operatorSession } from '../../../test/support/operator-session';
import { appPerTest, DATABASE_KINDS } from '../../../test/support/test-app';
import { chileTime } from './operaciones';

interface Line {
  id: number;
  at: string;
  kind: string;
  rutMasked: string | null;
  detail: Record<string, unknown>;
}

describe.each(DATABASE_KINDS)('the audit trail an auditor can use, on %s', (kind) => {
  const t = appPerTest(kind);
  const op = () => t.app.operator;

  async function auditorGet() {
    const auditor = await operatorSession(op(), 'auditor');
    return async (query: string) => {
      const res = await op().inject({ method: 'GET', url: `/admin/auditoria?${query}`, headers: { cookie: auditor.cookie } });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      return res.json().operacionesResponse.eventos as Line[];
    };
  }

  it('finds a payment’s events by RUT and by transaction, card events included, and by partial text in any case', async () => {
    const { token, productos } = await listProducts(t.app, '11111111-1');
    const id = (await postSeleccionar(t.app, token, '11111111-1', [oldest(productos.find((p) => p.tipoFamiliaProducto === 'CP')!, 1)])).json().seleccionarProductoResponse.idTransaccion as string;
    const numeroCuenta = (await postAutentica(t.app, token, '11111111-1', '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta;
    const cells = (await postAutorizar(t.app, token, '11111111-1', '11111111-1', 1)).json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[];
    const card = demoCoordinateCard('11111111-1');
    await postPagar(t.app, { token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta, factor: 1, valores: cells.map((c) => card[c.valor]!) });
    // A card event names the transaction only, as the card paths write theirs: the trail gives it the member's RUT.
    await appendAudit(t.database.db, { kind: 'webpay.reembolso', detail: { idTransaccion: id, buyOrder: 'PO-AUDIT-1' } });

    const get = await auditorGet();
    const byTransaction = await get(`idTransaccion=${id}`);
    expect(byTransaction.map((l) => l.kind)).toEqual(expect.arrayContaining(['clave.correcta', 'webpay.reembolso']));
    expect(byTransaction.every((l) => l.rutMasked === byTransaction[0]!.rutMasked && /\*+111-1$/.test(l.rutMasked ?? ''))).toBe(true);
    expect((await get(`idTransaccion=${id.toUpperCase()}`)).length).toBe(byTransaction.length);

    const byRut = await get('rut=11.111.111-1');
    expect(byRut.map((l) => l.kind)).toContain('webpay.reembolso');
    expect(await get('rut=19.191.919-K')).toEqual([]);

    // Partial text, any case: part of a kind, or of a value of the detail.
    expect((await get('texto=REEMBOLSO')).map((l) => l.kind)).toEqual(['webpay.reembolso']);
    expect((await get('texto=po-audit')).map((l) => l.kind)).toEqual(['webpay.reembolso']);
    expect(await get('texto=100%25')).toEqual([]);

    // The list of kinds comes from the server.
    const auditor = await operatorSession(op(), 'auditor');
    const kinds = await op().inject({ method: 'GET', url: '/admin/auditoria/tipos', headers: { cookie: auditor.cookie } });
    expect(kinds.json().operacionesResponse.tipos).toEqual(expect.arrayContaining(['clave.correcta', 'webpay.reembolso']));
    const agente = await operatorSession(op(), 'agente');
    expect((await op().inject({ method: 'GET', url: '/admin/auditoria/tipos', headers: { cookie: agente.cookie } })).statusCode).toBe(403);

    expect((await op().inject({ method: 'GET', url: '/admin/auditoria?idTransaccion=nope', headers: { cookie: auditor.cookie } })).statusCode).toBe(400);
  });

  it('finds a third party’s payment from either RUT: the payer’s events by the beneficiary’s RUT, and the beneficiary’s by the payer’s', async () => {
    // 19.191.919-K pays 11.111.111-1's participation share from their own account.
    const holder = '11111111-1';
    const payer = '19191919-K';
    const { token, productos } = await listProducts(t.app, holder);
    const id = (await postSeleccionar(t.app, token, holder, [oldest(productos.find((p) => p.tipoFamiliaProducto === 'CP')!, 1)])).json().seleccionarProductoResponse.idTransaccion as string;
    const numeroCuenta = (await postAutentica(t.app, token, payer, '1234')).json().autenticaConsultaFactoresResponse.numeroCuenta;
    const cells = (await postAutorizar(t.app, token, holder, payer, 1)).json().autorizarPagoProductoCVResponse.desafio.item as { valor: string }[];
    const card = demoCoordinateCard(payer);
    const paid = await postPagar(t.app, { token, rutTitular: holder, rutPago: payer, numeroCuenta, factor: 1, valores: cells.map((c) => card[c.valor]!) });
    expect(paid.statusCode, paid.body).toBe(200);
    // A line about the payment written under the beneficiary's RUT (the card paths' way).
    await appendAudit(t.database.db, { kind: 'comprobante.enviado', detail: { idTransaccion: id } });

    const get = await auditorGet();
    const aboutPayment = (lines: Line[]) => lines.filter((l) => l.detail.idTransaccion === id);
    const underPayer = aboutPayment(await get('rut=19.191.919-K'));
    const underHolder = aboutPayment(await get('rut=11.111.111-1'));
    // The payer's login and debit are written under the payer's RUT; the beneficiary's RUT finds them too, and back.
    expect(underPayer.some((l) => l.kind === 'clave.correcta' && /919-K$/.test(l.rutMasked ?? ''))).toBe(true);
    expect(underHolder.map((l) => l.kind)).toEqual(expect.arrayContaining(['clave.correcta', 'pago.cuentavista.enviado', 'comprobante.enviado']));
    expect(underPayer.map((l) => l.kind)).toEqual(expect.arrayContaining(['comprobante.enviado']));
    expect(underHolder.map((l) => l.id).sort()).toEqual(underPayer.map((l) => l.id).sort());
    // A member who has nothing to do with the payment finds none of it.
    expect(aboutPayment(await get('rut=9.876.543-3'))).toEqual([]);
  });

  it('filters by part of an operator’s name in any case', async () => {
    const operaciones = await operatorSession(op(), 'operaciones');
    const changed = await op().inject({ method: 'PUT', url: '/admin/parametros/cancelTrxMsg', headers: asOperator(operaciones), payload: { valor: 'Pago anulado', motivo: 'Texto más claro para el socio' } });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    const get = await auditorGet();
    const found = await get('operador=%C3%B3scar');
    expect(found.map((l) => l.kind)).toContain('admin.parametro.actualizado');
    expect(found.every((l) => JSON.stringify(l.detail).includes('Óscar'))).toBe(true);
    expect(await get('operador=nadie-asi')).toEqual([]);
  });

  it('takes the date range in Chile’s days, and the CSV says Chile’s time', async () => {
    // 23:30 on 14 March in Santiago is already the 15th in UTC.
    const at = new Date('2026-03-15T02:30:00Z');
    await t.database.db.insert(auditLog).values({ at, kind: 'prueba.horario', rutMasked: null, detail: { nota: 'tarde' } });
    const get = await auditorGet();
    expect((await get('kind=prueba.horario&desde=2026-03-14&hasta=2026-03-14')).length).toBe(1);
    expect(await get('kind=prueba.horario&desde=2026-03-15')).toEqual([]);
    const auditor = await operatorSession(op(), 'auditor');
    const csv = await op().inject({ method: 'GET', url: '/admin/auditoria/csv?kind=prueba.horario', headers: { cookie: auditor.cookie } });
    expect(csv.body).toContain('2026-03-14 23:30:00 -03:00');
    expect(chileTime(new Date('2026-07-01T12:00:00Z'))).toBe('2026-07-01 08:00:00 -04:00');
  });

  it('records logins the server refused: at closing time, and with a blocked password', async () => {
    const blocked = await listProducts(t.app, '13579246-2');
    const blockedId = (await postSeleccionar(t.app, blocked.token, '13579246-2', [oldest(blocked.productos[0]!, 1)])).json().seleccionarProductoResponse.idTransaccion as string;
    expect(errorCode(await postAutentica(t.app, blocked.token, '13579246-2', '1234'), 'autenticaConsultaFactoresResponse')).toBe('45203016');

    const { token, productos } = await listProducts(t.app, '11111111-1');
    const id = (await postSeleccionar(t.app, token, '11111111-1', [oldest(productos.find((p) => p.tipoFamiliaProducto === 'CP')!, 1)])).json().seleccionarProductoResponse.idTransaccion as string;
    // The day's noon (16:00Z, 12:00 or 13:00 in Santiago) and 10 h 40 later: past the 22:30 closing of shares.
    const clock = t.clock as SettableClock;
    clock.set(new Date(clock().getTime() + 10 * 3_600_000 + 40 * 60_000));
    const late = await postAutentica(t.app, token, '11111111-1', '1234');
    expect(late.json(), late.body).toMatchObject({ autenticaConsultaFactoresResponse: { error: { errores: { detalleError: { codigo: '4953' } } } } });

    const get = await auditorGet();
    expect(await get('kind=clave.rechazada.bloqueada')).toEqual([expect.objectContaining({ rutMasked: expect.stringMatching(/246-2$/), detail: expect.objectContaining({ idTransaccion: blockedId }) })]);
    expect(await get('kind=clave.rechazada.horario')).toEqual([expect.objectContaining({ rutMasked: expect.stringMatching(/111-1$/), detail: expect.objectContaining({ idTransaccion: id, codigo: '4953' }) })]);
  });
});
