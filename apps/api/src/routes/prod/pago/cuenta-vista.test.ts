import { hash, verify } from '@node-rs/argon2';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { PASSWORD_HASH_OPTIONS } from '../../../db/password';
import { accounts, auditLog, authoriserDevices, authorizations, coordinateCards, instalments, members, passwordClientGuards, products, transactionItems, transactions, vouchers } from '../../../db/schema';
import {
  deviceDecides,
  devicePending,
  enrolDevice,
  errorCode,
  listProducts,
  oldest,
  postAutentica,
  postAutorizar,
  postConsultarPago,
  postPagar,
  postSeleccionar,
  solveCaptcha,
  productNumbered,
} from '../../../../test/support/member-calls';
import { appPerTest, DATABASE_KINDS } from '../../../../test/support/test-app';
import { MAX_PASSWORD_FAILURES } from '../../../services/password-check';

const AUT = 'autenticaConsultaFactoresResponse';
const AUZ = 'autorizarPagoProductoCVResponse';
const PAG = 'pagarProductoCVResponse';

describe.each(DATABASE_KINDS)('own-account payment (calls 4–7) on %s', (kind) => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest(kind);

  const balance = async (rut: string) =>
    (await t.database.db.select({ saldo: accounts.saldo }).from(accounts).innerJoin(members, eq(members.id, accounts.memberId)).where(eq(members.rut, rut)))[0]!.saldo;
  const pending = async (numeroProducto: string) =>
    (await t.database.db
      .select({ cuota: instalments.numeroCuota, pendiente: instalments.montoPendiente })
      .from(instalments)
      .innerJoin(products, eq(products.id, instalments.productId))
      .where(and(eq(products.numeroProducto, numeroProducto), sql`${instalments.montoPendiente} > 0`))
      .orderBy(instalments.numeroCuota));

  /** List, select the oldest `count` instalments of a product, log in as the payer. */
  async function prepare(memberRut: string, numeroProducto: string, count: number, payerRut = memberRut) {
    const { token, productos } = await listProducts(t.app, memberRut);
    const product = productNumbered(productos, numeroProducto);
    const sel = await postSeleccionar(t.app, token, memberRut, [oldest(product, count)]);
    const idTransaccion = sel.json().seleccionarProductoResponse.idTransaccion as string;
    const total = sel.json().seleccionarProductoResponse.montoTotal as number;
    const login = await postAutentica(t.app, token, payerRut, '1234');
    const numeroCuenta = login.json()[AUT].numeroCuenta as string;
    return { token, idTransaccion, total, login, numeroCuenta };
  }

  const product = async (numeroProducto: string) =>
    (await t.database.db.select().from(products).where(eq(products.numeroProducto, numeroProducto)))[0]!;

  it('pays with the coordinate card exactly once and answers the same voucher on a repeated call', async () => {
    await enrolDevice(t.app, '11111111-1');
    const before = await balance('11111111-1');
    const debtBefore = (await product('520011223344')).deudaTotal;
    const { token, idTransaccion, total, login, numeroCuenta } = await prepare('11111111-1', '520011223344', 2);
    expect(login.json()[AUT]).toMatchObject({ codigo: '200', factores: [{ factor: 1 }, { factor: 2 }] });
    const challenge = await postAutorizar(t.app, token, '11111111-1', '11111111-1', 1);
    const cells = (challenge.json()[AUZ].desafio.item as { valor: string }[]).map((i) => i.valor);
    expect(new Set(cells).size).toBe(3);
    const card = demoCoordinateCard('11111111-1');
    const valores = cells.map((c) => card[c]!);
    const paid = await postPagar(t.app, { token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta, factor: 1, valores });
    const pagado = paid.json()[PAG].productoPagadoCV;
    expect(pagado).toMatchObject({ idTransaccion, numeroProducto: '****3344', montoPagado: total });

    const again = await postPagar(t.app, { token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta, factor: 1, valores });
    expect(again.json()[PAG].productoPagadoCV).toEqual(pagado);
    expect(await balance('11111111-1')).toBe(before - total);
    expect((await pending('520011223344')).map((r) => r.cuota)).toEqual([39]);
    // Both instalments of the one product: its debt down by their sum, both items paid under one authorisation.
    expect((await product('520011223344')).deudaTotal).toBe(Math.max(debtBefore - total, 0));
    const items = await t.database.db.select().from(transactionItems).where(eq(transactionItems.idTransaccion, idTransaccion));
    expect(items.map((i) => i.status)).toEqual(['paid', 'paid']);
    expect(new Set(items.map((i) => i.authorizationCode)).size).toBe(1);
    expect(items[0]!.authorizationCode).toMatch(/^\d{6}$/);
    const paidInstalments = await t.database.db.select().from(instalments).where(sql`${instalments.id} in (${sql.join(items.map((i) => sql`${i.instalmentId}`), sql`, `)})`);
    expect(paidInstalments.map((i) => [i.montoPendiente, i.pagoMinimo, i.paidAt !== null])).toEqual([
      [0, 0, true],
      [0, 0, true],
    ]);
    expect((await t.database.db.select().from(transactions).where(eq(transactions.idTransaccion, idTransaccion)))[0]).toMatchObject({ status: 'paid', medioPago: 'CUENTA VISTA' });

    const voucher = await postConsultarPago(t.app, token, idTransaccion);
    expect(voucher.json().consultarPagoResponse.listaPago.pago).toMatchObject({
      idTransaccion,
      medioPago: 'CUENTA VISTA',
      descripcionProducto: 'CREDITO HIPOTECARIO',
      tipoFamiliaProducto: 'HI',
      rutDeudor: '11.111.111-1',
      email: 'cam*********@example.cl',
    });
    // A voucher stored before vouchers named their family's code is still answered, and drawn by its description.
    await t.database.db.update(vouchers).set({ payload: sql`${vouchers.payload} #- '{0,tipoFamiliaProducto}'` }).where(eq(vouchers.idTransaccion, idTransaccion));
    const old = (await postConsultarPago(t.app, token, idTransaccion)).json().consultarPagoResponse.listaPago.pago;
    expect(old).toMatchObject({ idTransaccion, descripcionProducto: 'CREDITO HIPOTECARIO' });
    expect(old.tipoFamiliaProducto).toBeUndefined();
  });

  it('counts wrong coordinates and blocks the card at the third', async () => {
    const { token, numeroCuenta } = await prepare('15432876-9', '630043218765', 1);
    const codes = [];
    for (let i = 0; i < 3; i++) {
      await postAutorizar(t.app, token, '15432876-9', '15432876-9', 1);
      const res = await postPagar(t.app, { token, rutTitular: '15432876-9', rutPago: '15432876-9', numeroCuenta, factor: 1, valores: ['00', '00', '00'] });
      codes.push(errorCode(res, PAG));
    }
    expect(codes).toEqual(['5203007', '5203007', '5203017']);
    expect(errorCode(await postAutorizar(t.app, token, '15432876-9', '15432876-9', 1), AUZ)).toBe('45203017');
    expect(await balance('15432876-9')).toBe(1_000_000);
  });

  it('refuses paying without asking for coordinates first (485)', async () => {
    const { token, numeroCuenta } = await prepare('9876543-3', '410098765431', 1);
    expect(errorCode(await postPagar(t.app, { token, rutTitular: '9876543-3', rutPago: '9876543-3', numeroCuenta, factor: 1, valores: ['11', '22', '33'] }), PAG)).toBe('485');
  });

  it('refuses an account other than the login’s (440) before judging the coordinates, which stay usable', async () => {
    const before = await balance('9876543-3');
    const { token, numeroCuenta, total } = await prepare('9876543-3', '410098765431', 1);
    const challenge = await postAutorizar(t.app, token, '9876543-3', '9876543-3', 1);
    const card = demoCoordinateCard('9876543-3');
    const valores = (challenge.json()[AUZ].desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
    const other = numeroCuenta.replace(/.$/, (digit) => String((Number(digit) + 1) % 10));
    const body = { token, rutTitular: '9876543-3', rutPago: '9876543-3', factor: 1 as const };
    expect(errorCode(await postPagar(t.app, { ...body, numeroCuenta: other, valores: ['00', '00', '00'] }), PAG)).toBe('440');
    expect(await balance('9876543-3')).toBe(before);
    expect((await t.database.db.select().from(coordinateCards).innerJoin(members, eq(members.id, coordinateCards.memberId)).where(eq(members.rut, '9876543-3')))[0]!.coordinate_cards.failures).toBe(0);
    const paid = await postPagar(t.app, { ...body, numeroCuenta, valores });
    expect(paid.json()[PAG].productoPagadoCV).toMatchObject({ numeroProducto: '****5431', montoPagado: total });
    expect(await balance('9876543-3')).toBe(before - total);
  });

  it('pays with the mobile authoriser once the push is approved, polling meanwhile', async () => {
    const device = await enrolDevice(t.app, '14141414-3');
    const before = await balance('14141414-3');
    const { token, numeroCuenta, total, idTransaccion } = await prepare('14141414-3', '630014141414', 1);
    expect(errorCode(await postAutorizar(t.app, token, '14141414-3', '14141414-3', 1), AUZ)).toBe('5203002');
    expect((await postAutorizar(t.app, token, '14141414-3', '14141414-3', 2)).json()[AUZ]).toMatchObject({ codigo: '200', vigencia: 120 });
    const poll = () => postPagar(t.app, { token, rutTitular: '14141414-3', rutPago: '14141414-3', numeroCuenta, factor: 2 });
    expect(errorCode(await poll(), PAG)).toBe('25');
    const [push] = await devicePending(t.app, device);
    // The device is shown what it signs: this transaction, its amount, the masked account and product, the payer.
    expect(push).toMatchObject({ idTransaccion, monto: total, cuenta: '****5611', productos: ['****1414'], rutPagador: '14141414-3', descripcion: 'Crédito MYPE' });
    expect((await deviceDecides(t.app, device, push!, 'aprobar')).json().decidirSolicitudResponse).toEqual({ codigo: '200', decision: 'aprobar' });
    expect((await poll()).json()[PAG].productoPagadoCV.montoPagado).toBe(total);
    expect(await balance('14141414-3')).toBe(before - total);
  });

  it('answers 8 when the push is rejected and nothing moves', async () => {
    const device = await enrolDevice(t.app, '14141414-3');
    const before = await balance('14141414-3');
    const { token, numeroCuenta } = await prepare('14141414-3', '630014141414', 1);
    await postAutorizar(t.app, token, '14141414-3', '14141414-3', 2);
    const [push] = await devicePending(t.app, device);
    await deviceDecides(t.app, device, push!, 'rechazar');
    expect(errorCode(await postPagar(t.app, { token, rutTitular: '14141414-3', rutPago: '14141414-3', numeroCuenta, factor: 2 }), PAG)).toBe('8');
    expect(await balance('14141414-3')).toBe(before);
  });

  it('lets a third party pay another member’s instalment from their own account', async () => {
    await enrolDevice(t.app, '19191919-K');
    const payerBefore = await balance('19191919-K');
    const ownerBefore = await balance('11111111-1');
    const { token, numeroCuenta, total, login } = await prepare('11111111-1', '630055667788', 1, '19191919-K');
    expect(login.json()[AUT].factores).toEqual([{ factor: 1 }, { factor: 2 }]);
    const challenge = await postAutorizar(t.app, token, '11111111-1', '19191919-K', 1);
    const card = demoCoordinateCard('19191919-K');
    const valores = (challenge.json()[AUZ].desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
    const paid = await postPagar(t.app, { token, rutTitular: '11111111-1', rutPago: '19191919-K', numeroCuenta, factor: 1, valores });
    expect(paid.json()[PAG].productoPagadoCV.montoPagado).toBe(total);
    expect(await balance('19191919-K')).toBe(payerBefore - total);
    expect(await balance('11111111-1')).toBe(ownerBefore);
  });

  it('challenges a third party with the payer’s own factors, not the holder’s', async () => {
    // The holder (11.111.111-1) has a coordinate card; the payer (14.141.414-3) only the mobile authoriser.
    await enrolDevice(t.app, '14141414-3');
    const { token, login, idTransaccion } = await prepare('11111111-1', '630055667788', 1, '14141414-3');
    expect(login.json()[AUT].factores).toEqual([{ factor: 2 }]);
    expect(errorCode(await postAutorizar(t.app, token, '11111111-1', '14141414-3', 1), AUZ)).toBe('5203002');
    expect((await postAutorizar(t.app, token, '11111111-1', '14141414-3', 2)).json()[AUZ]).toMatchObject({ codigo: '200' });
    const pushes = await t.database.db
      .select({ rut: members.rut, factor: authorizations.factor })
      .from(authorizations)
      .innerJoin(members, eq(members.id, authorizations.memberId))
      .where(and(eq(authorizations.idTransaccion, idTransaccion), eq(authorizations.status, 'pending')));
    expect(pushes).toEqual([{ rut: '14141414-3', factor: 2 }]);
  });

  it('credits a deposit into the member’s own savings account once', async () => {
    const before = await balance('12345678-5');
    const savingsBefore = (await product('800056780001')).saldo;
    const { token, productos } = await listProducts(t.app, '12345678-5');
    const ah = productos[0]!;
    await postSeleccionar(t.app, token, '12345678-5', [
      { numeroProducto: ah.numeroProducto, tipoFamiliaProducto: 'AH', nombreFamiliaProducto: ah.nombreFamiliaProducto, detalleProducto: [{ numeroCuota: '0', valorAPagar: 50_000, fechaVencimiento: '0' }] },
    ]);
    const numeroCuenta = (await postAutentica(t.app, token, '12345678-5', '1234')).json()[AUT].numeroCuenta as string;
    const challenge = await postAutorizar(t.app, token, '12345678-5', '12345678-5', 1);
    const card = demoCoordinateCard('12345678-5');
    const valores = (challenge.json()[AUZ].desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
    const paid = await postPagar(t.app, { token, rutTitular: '12345678-5', rutPago: '12345678-5', numeroCuenta, factor: 1, valores });
    expect(paid.json()[PAG].productoPagadoCV.montoPagado).toBe(50_000);
    expect(await balance('12345678-5')).toBe(before - 50_000);
    expect((await product('800056780001')).saldo).toBe(savingsBefore + 50_000);
  });

  it('refuses a deposit into another member’s savings account (451)', async () => {
    const { token, productos } = await listProducts(t.app, '12345678-5');
    const ah = productos[0]!;
    await postSeleccionar(t.app, token, '12345678-5', [
      { numeroProducto: ah.numeroProducto, tipoFamiliaProducto: 'AH', nombreFamiliaProducto: ah.nombreFamiliaProducto, detalleProducto: [{ numeroCuota: '0', valorAPagar: 50_000, fechaVencimiento: '0' }] },
    ]);
    expect(errorCode(await postAutentica(t.app, token, '19191919-K', '1234'), AUT)).toBe('451');
  });

  it('leads to insufficient funds with nothing changed (47203)', async () => {
    const { token, numeroCuenta } = await prepare('16789012-1', '410016789012', 1);
    const challenge = await postAutorizar(t.app, token, '16789012-1', '16789012-1', 1);
    const card = demoCoordinateCard('16789012-1');
    const valores = (challenge.json()[AUZ].desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
    const res = await postPagar(t.app, { token, rutTitular: '16789012-1', rutPago: '16789012-1', numeroCuenta, factor: 1, valores });
    expect(errorCode(res, PAG)).toBe('47203');
    expect(await balance('16789012-1')).toBe(1_000);
    expect((await pending('410016789012')).length).toBe(3);
  });

  it('answers 45203016 to a blocked password and blocks one after three wrong ones', async () => {
    const { token, productos } = await listProducts(t.app, '13579246-2');
    await postSeleccionar(t.app, token, '13579246-2', [oldest(productos[0]!, 1)]);
    expect(errorCode(await postAutentica(t.app, token, '13579246-2', '1234'), AUT)).toBe('45203016');

    const other = await listProducts(t.app, '9876543-3');
    await postSeleccionar(t.app, other.token, '9876543-3', [oldest(other.productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
    const codes = [];
    for (let i = 0; i < MAX_PASSWORD_FAILURES; i++) codes.push(errorCode(await postAutentica(t.app, other.token, '9876543-3', 'mala'), AUT));
    expect(codes).toEqual(['45203113', '45203113', '45203016']);
    expect(errorCode(await postAutentica(t.app, other.token, '9876543-3', '1234'), AUT)).toBe('45203016');
  });

  it('counts only consecutive wrong passwords: a right one clears the count', async () => {
    const { token, productos } = await listProducts(t.app, '9876543-3');
    await postSeleccionar(t.app, token, '9876543-3', [oldest(productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
    const codes = [];
    for (const clave of ['mala', 'mala', '1234', 'mala', 'mala']) codes.push(errorCode(await postAutentica(t.app, token, '9876543-3', clave), AUT) ?? 'ok');
    expect(codes).toEqual(['45203113', '45203113', 'ok', '45203113', '45203113']);
    const [row] = await t.database.db.select({ failures: members.passwordFailures, blockedAt: members.passwordBlockedAt }).from(members).where(eq(members.rut, '9876543-3'));
    expect(row).toEqual({ failures: 2, blockedAt: null });
  });

  it('judges parallel wrong passwords one at a time: two count, the third blocks, the rest meet the block', async () => {
    const { token, productos } = await listProducts(t.app, '9876543-3');
    await postSeleccionar(t.app, token, '9876543-3', [oldest(productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
    const [last] = await t.database.db.select({ id: sql<number>`coalesce(max(${auditLog.id}), 0)`.mapWith(Number) }).from(auditLog);
    const captchas = await Promise.all(Array.from({ length: 8 }, () => solveCaptcha(t.app)));
    const codes = await Promise.all(captchas.map(async (captcha) => errorCode(await postAutentica(t.app, token, '9876543-3', 'mala', captcha), AUT)));
    expect(codes.filter((c) => c === '45203113')).toHaveLength(2);
    expect(codes.filter((c) => c === '45203016')).toHaveLength(6);
    const [row] = await t.database.db.select({ failures: members.passwordFailures, blockedAt: members.passwordBlockedAt }).from(members).where(eq(members.rut, '9876543-3'));
    expect(row!.failures).toBe(MAX_PASSWORD_FAILURES);
    // Blocked on the client that gave them (decision 032), which is this test's one address.
    const [guard] = await t.database.db.select({ blockedAt: passwordClientGuards.passwordBlockedAt }).from(passwordClientGuards).where(eq(passwordClientGuards.rut, '9876543-3'));
    expect(guard!.blockedAt).not.toBeNull();
    const lines = await t.database.db
      .select({ kind: auditLog.kind })
      .from(auditLog)
      .where(and(sql`${auditLog.id} > ${last!.id}`, sql`${auditLog.kind} like 'clave.%'`));
    // Three judged; the five that came after the block are recorded as refused by it (issue 50).
    expect(lines.map((l) => l.kind).sort()).toEqual(['clave.bloqueada', 'clave.incorrecta', 'clave.incorrecta', ...Array(5).fill('clave.rechazada.bloqueada')]);
    // Even the right password now meets the block.
    expect(errorCode(await postAutentica(t.app, token, '9876543-3', '1234'), AUT)).toBe('45203016');
  });

  /**
   * Member 9876543-3's login with password '1234' against a deliberately slow hash of it, so that the check lasts long
   * enough to act on the database meanwhile: `during` runs a quarter of a check's time after the login was sent, and
   * gets the check's time (measured once here) and the login's answer to come.
   */
  async function slowLogin(during: (checkMs: number, login: ReturnType<typeof postAutentica>) => Promise<void>) {
    const slow = await hash('1234', { ...PASSWORD_HASH_OPTIONS, memoryCost: 65_536, timeCost: 12 });
    const started = performance.now();
    expect(await verify(slow, '1234')).toBe(true);
    const checkMs = performance.now() - started;
    await t.database.db.update(members).set({ passwordHash: slow }).where(eq(members.rut, '9876543-3'));
    const { token, productos } = await listProducts(t.app, '9876543-3');
    await postSeleccionar(t.app, token, '9876543-3', [oldest(productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
    const login = postAutentica(t.app, token, '9876543-3', '1234', await solveCaptcha(t.app));
    await new Promise((resolve) => setTimeout(resolve, checkMs / 4));
    await during(checkMs, login);
  }

  it('checks the password with neither the payer’s row locked nor a database transaction open', async () => {
    await slowLogin(async (checkMs, login) => {
      // 'nowait': PostgreSQL refuses at once a row another transaction holds. PGlite has one connection, which a
      // transaction keeps for itself until it ends: the probe would wait for the whole check.
      const probeStarted = performance.now();
      await t.database.db.execute(sql`select id from members where rut = '9876543-3' for update nowait`);
      expect(performance.now() - probeStarted).toBeLessThan(checkMs / 2);
      expect(errorCode(await login, AUT)).toBeUndefined();
    });
  });

  it('judges the password against the hash the locked row holds when it changed during the check', async () => {
    await slowLogin(async (_checkMs, login) => {
      // The password changes while '1234' is being checked against the old hash.
      await t.database.db.update(members).set({ passwordHash: await hash('5678', PASSWORD_HASH_OPTIONS) }).where(eq(members.rut, '9876543-3'));
      expect(errorCode(await login, AUT)).toBe('45203113');
      const [row] = await t.database.db.select({ failures: members.passwordFailures }).from(members).where(eq(members.rut, '9876543-3'));
      expect(row!.failures).toBe(1);
    });
  });

  it('checks again under the locks, and reads the account and factors there, when the hash changed but not the password', async () => {
    await enrolDevice(t.app, '9876543-3');
    await slowLogin(async (_checkMs, login) => {
      await t.database.db.update(members).set({ passwordHash: await hash('1234', PASSWORD_HASH_OPTIONS) }).where(eq(members.rut, '9876543-3'));
      const answer = await login;
      expect(errorCode(answer, AUT)).toBeUndefined();
      expect(answer.json()[AUT]).toMatchObject({ numeroCuenta: '000031245603', factores: [{ factor: 1 }, { factor: 2 }] });
    });
  });

  it('counts only consecutive wrong coordinates: a right answer clears the count', async () => {
    const { token, numeroCuenta } = await prepare('15432876-9', '630043218765', 1);
    await postAutorizar(t.app, token, '15432876-9', '15432876-9', 1);
    const wrong = await postPagar(t.app, { token, rutTitular: '15432876-9', rutPago: '15432876-9', numeroCuenta, factor: 1, valores: ['00', '00', '00'] });
    expect(errorCode(wrong, PAG)).toBe('5203007');
    const challenge = await postAutorizar(t.app, token, '15432876-9', '15432876-9', 1);
    const card = demoCoordinateCard('15432876-9');
    const valores = (challenge.json()[AUZ].desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
    const paid = await postPagar(t.app, { token, rutTitular: '15432876-9', rutPago: '15432876-9', numeroCuenta, factor: 1, valores });
    expect(errorCode(paid, PAG)).toBeUndefined();
    const [row] = await t.database.db
      .select({ failures: coordinateCards.failures })
      .from(coordinateCards)
      .innerJoin(members, eq(members.id, coordinateCards.memberId))
      .where(eq(members.rut, '15432876-9'));
    expect(row!.failures).toBe(0);
  });

  it('answers the same challenge to a second call 5, and lets a refused request for the other factor supersede it', async () => {
    const [member] = await t.database.db.select({ id: members.id }).from(members).where(eq(members.rut, '11111111-1'));
    await enrolDevice(t.app, '11111111-1');
    const { token, idTransaccion } = await prepare('11111111-1', '520011223344', 1);
    const statuses = async () =>
      (await t.database.db.select({ status: authorizations.status }).from(authorizations).where(eq(authorizations.idTransaccion, idTransaccion)).orderBy(authorizations.createdAt)).map(
        (a) => a.status,
      );
    await postAutorizar(t.app, token, '11111111-1', '11111111-1', 1);
    await postAutorizar(t.app, token, '11111111-1', '11111111-1', 1);
    expect(await statuses()).toEqual(['pending']);
    await t.database.db.update(authoriserDevices).set({ revokedAt: sql`now()` }).where(eq(authoriserDevices.memberId, member!.id));
    expect(errorCode(await postAutorizar(t.app, token, '11111111-1', '11111111-1', 2), AUZ)).toBe('7');
    expect(await statuses()).toEqual(['expired']);
  });

  it('offers only the factors that are not blocked, and refuses a blocked one at call 5', async () => {
    const [member] = await t.database.db.select({ id: members.id }).from(members).where(eq(members.rut, '11111111-1'));
    await enrolDevice(t.app, '11111111-1');
    const factorsWith = async () => {
      const { token, login } = await prepare('11111111-1', '520011223344', 1);
      return { token, factores: login.json()[AUT].factores as { factor: number }[] };
    };
    await t.database.db.update(coordinateCards).set({ blockedAt: sql`now()` }).where(eq(coordinateCards.memberId, member!.id));
    const cardBlocked = await factorsWith();
    expect(cardBlocked.factores).toEqual([{ factor: 2 }]);
    expect(errorCode(await postAutorizar(t.app, cardBlocked.token, '11111111-1', '11111111-1', 1), AUZ)).toBe('45203017');

    await t.database.db.update(coordinateCards).set({ blockedAt: null }).where(eq(coordinateCards.memberId, member!.id));
    await t.database.db.update(authoriserDevices).set({ revokedAt: sql`now()` }).where(eq(authoriserDevices.memberId, member!.id));
    const appBlocked = await factorsWith();
    expect(appBlocked.factores).toEqual([{ factor: 1 }]);
    expect(errorCode(await postAutorizar(t.app, appBlocked.token, '11111111-1', '11111111-1', 2), AUZ)).toBe('7');
    expect(errorCode(await postAutorizar(t.app, appBlocked.token, '11111111-1', '11111111-1', 1), AUZ)).toBeUndefined();
  });

  it('never answers a voucher to another session, nor one that is not paid', async () => {
    const owner = await listProducts(t.app, '9876543-3');
    const sel = await postSeleccionar(t.app, owner.token, '9876543-3', [oldest(owner.productos.find((p) => p.tipoFamiliaProducto === 'PC')!, 1)]);
    const id = sel.json().seleccionarProductoResponse.idTransaccion as string;
    expect(errorCode(await postConsultarPago(t.app, owner.token, id), 'consultarPagoResponse')).toBe('509');
    const stranger = await listProducts(t.app, '15432876-9');
    expect(errorCode(await postConsultarPago(t.app, stranger.token, id), 'consultarPagoResponse')).toBe('516');
    expect(errorCode(await postConsultarPago(t.app, owner.token, '0'.repeat(32)), 'consultarPagoResponse')).toBe('516');
    expect(errorCode(await postConsultarPago(t.app, 'no-such-token', id), 'consultarPagoResponse')).toBe('476');
  });

  it('keeps 20 concurrent payments of one transaction to one debit', async () => {
    const before = await balance('11111111-1');
    const { token, idTransaccion, total, numeroCuenta } = await prepare('11111111-1', '410012345678', 1);
    const challenge = await postAutorizar(t.app, token, '11111111-1', '11111111-1', 1);
    const card = demoCoordinateCard('11111111-1');
    const valores = (challenge.json()[AUZ].desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => postPagar(t.app, { token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta, factor: 1, valores })),
    );
    const answers = results.map((r) => JSON.stringify(r.json()[PAG].productoPagadoCV));
    expect(new Set(answers).size).toBe(1);
    expect(await balance('11111111-1')).toBe(before - total);
    expect(await t.database.db.$count(vouchers, eq(vouchers.idTransaccion, idTransaccion))).toBe(1);
  });

  it('moves money once when two transactions take the same instalment', async () => {
    const before = await balance('11111111-1');
    const first = await prepare('11111111-1', '630055667788', 1);
    const second = await prepare('11111111-1', '630055667788', 1);
    // Each answers 'paid' or the code that refused it: a debit under way may already stop the other's challenge (443).
    const pay = async (p: typeof first) => {
      const challenge = await postAutorizar(t.app, p.token, '11111111-1', '11111111-1', 1);
      const refused = errorCode(challenge, AUZ);
      if (refused) return refused;
      const card = demoCoordinateCard('11111111-1');
      const valores = (challenge.json()[AUZ].desafio.item as { valor: string }[]).map((i) => card[i.valor]!);
      return errorCode(await postPagar(t.app, { token: p.token, rutTitular: '11111111-1', rutPago: '11111111-1', numeroCuenta: p.numeroCuenta, factor: 1, valores }), PAG) ?? 'paid';
    };
    const outcomes = (await Promise.all([pay(first), pay(second)])).sort();
    expect(outcomes[1]).toBe('paid');
    expect(['442', '443']).toContain(outcomes[0]);
    expect(await balance('11111111-1')).toBe(before - first.total);
    const statuses = await t.database.db
      .select({ status: transactions.status })
      .from(transactions)
      .where(sql`${transactions.idTransaccion} in (${first.idTransaccion}, ${second.idTransaccion})`);
    // Refused for a debit under way, the other stays open (it expires); refused as paid, it is rejected.
    expect(statuses.map((s) => s.status).sort()).toEqual(['paid', outcomes[0] === '443' ? 'pending' : 'rejected']);
    expect(await t.database.db.$count(authorizations)).toBeGreaterThan(0);
  });
});
