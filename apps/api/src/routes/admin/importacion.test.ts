import { ENROLAR_PATH, ENROLAR_RESPONSE } from '@pago/domain/call-autorizador';
import { maskRut } from '@pago/domain/rut';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readLoad } from '../../cli/import-file';
import { accounts, auditLog, authoriserDevices, authoriserEnrolmentCodes, instalments, mailQueue, members, products } from '../../db/schema';
import { AuthoriserDevice } from '../../../test/support/authoriser-device';
import { devicePending, enrolDevice, errorCode, listProducts } from '../../../test/support/member-calls';
import { startSmtpSink } from '../../../test/support/smtp-sink';
import { appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN } from '../../../test/support/test-app';

// The notices a load queues go out over real SMTP, here.
const smtp = await startSmtpSink();
afterAll(() => smtp.close());

const CSV = `rut,nombre,correo,numeroCuenta,saldoCuenta,familia,numeroProducto,numeroCuota,monto,montoPendiente,pagoMinimo,fechaVencimiento,medioPago
5.126.663-3,Ana Soto,ana@example.cl,000099990001,250000,PC,410055550001,1,40000,,,20301201,
5.126.663-3,Ana Soto,ana@example.cl,000099990001,250000,PC,410055550001,2,40000,,,20310101,
5.126.663-3,Ana Soto,ana@example.cl,000099990001,250000,AH,800055550001,,,,,,
12.345.678-0,RUT malo,,,,PC,410055550002,1,1000,,,20301201,
6.543.210-2,Otro,,,,PM,410012345678,1,1000,,,20301201,
`;

describe.each(DATABASE_KINDS)('nightly import on %s', (kind) => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest(kind, { config: { smtpUrl: smtp.url, productName: 'Cooperativa Ñandú' } });
  beforeEach(() => {
    smtp.received.length = 0;
  });

  const post = (socios: unknown[], token = TEST_ADMIN_TOKEN) =>
    t.app.inject({ method: 'POST', url: '/admin/importacion', headers: { authorization: `Bearer ${token}` }, payload: { corte: new Date().toISOString(), socios } });
  /** A machine token that holds only the nightly load's permission, as the load's own would. */
  const loadToken = async () => {
    const issued = await t.app.inject({ method: 'POST', url: '/admin/tokens', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { nombre: 'carga-nocturna', alcances: ['importacion'] } });
    return issued.json().consolaResponse.secreto as string;
  };
  /** The audit trail as an auditor reads it: by RUT (masked in the trail), newest first. */
  const trailOf = async (rut: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/admin/auditoria?rut=${rut}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    return res.json().operacionesResponse.eventos as { kind: string; rutMasked: string; detail: Record<string, unknown> }[];
  };
  const loadLines = async () => (await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'admin.importacion')).orderBy(auditLog.id)).map((r) => r.detail);
  const deliverMail = () => t.app.scheduler.runNow('mail-delivery');

  describe('what a load changes is visible', () => {
    // Issue 48: a token with only 'importacion' rewrote this member's name and e-mail, and only a count was left.
    it('writes a line under the masked RUT naming the fields a token with only importacion changed, and tells the old address', async () => {
      const res = await post([{ rut: '19.191.919-K', nombre: 'Sofía Herrera', correo: 'otra.persona@example.com' }], await loadToken());
      expect(res.json().operacionesResponse).toMatchObject({ aceptados: 1, rechazados: [] });

      const changed = (await trailOf('19.191.919-K')).filter((e) => e.kind === 'importacion.socio.cambiado');
      expect(changed).toEqual([expect.objectContaining({ rutMasked: maskRut('19191919-K'), detail: { cambios: ['nombre', 'correo'], operador: expect.stringContaining('carga-nocturna') } })]);
      expect(JSON.stringify(await t.database.db.select().from(auditLog))).not.toMatch(/otra\.persona|sofia\.herrera|19191919/);
      expect((await loadLines()).at(-1)).toMatchObject({ recibidos: 1, aceptados: 1, creados: 0, cambiados: 1 });

      // Queued with the change, sent after it by the mail job: nothing left inside the load's transaction.
      expect(smtp.received).toHaveLength(0);
      await deliverMail();
      expect(smtp.received).toHaveLength(1);
      const [notice] = smtp.received;
      expect(notice!.to).toMatchObject({ text: 'sofia.herrera@example.cl' });
      expect(notice!.subject).toBe('Cooperativa Ñandú: cambió tu correo registrado');
      expect(notice!.text).toContain('Tu correo registrado cambió a o***@example.com.');
      expect(`${notice!.text} ${notice!.html}`).not.toContain('otra.persona');
      expect(await t.database.db.$count(mailQueue, sql`${mailQueue.sentAt} is null`)).toBe(0);

      // The same load again changes nothing: no line, no notice.
      const linesBefore = await t.database.db.$count(auditLog);
      await post([{ rut: '19.191.919-K', nombre: 'Sofía Herrera', correo: 'otra.persona@example.com' }]);
      await deliverMail();
      expect(await t.database.db.$count(auditLog)).toBe(linesBefore + 1);
      expect((await loadLines()).at(-1)).toMatchObject({ aceptados: 1, creados: 0, cambiados: 0 });
      expect(smtp.received).toHaveLength(1);
    });

    it('writes a created member one line, an unchanged one none, and tells an address the load removed', async () => {
      const res = await post([
        { rut: '8.765.432-K', nombre: 'Pedro Lagos', correo: 'pedro@example.cl' },
        { rut: '11.111.111-1', nombre: 'Camila Rojas Fuentes', correo: 'camila.rojas@example.cl' },
        { rut: '12.345.678-5', nombre: 'Jorge Muñoz Soto' },
      ]);
      expect(res.json().operacionesResponse.aceptados).toBe(3);
      const kinds = async (rut: string) => (await trailOf(rut)).filter((e) => e.kind.startsWith('importacion.')).map((e) => [e.kind, e.detail.cambios]);
      expect(await kinds('8765432-K')).toEqual([['importacion.socio.creado', ['nombre', 'correo']]]);
      expect(await kinds('11111111-1')).toEqual([]);
      expect(await kinds('12345678-5')).toEqual([['importacion.socio.cambiado', ['correo']]]);
      await deliverMail();
      expect(smtp.received.map((m) => [m.to && 'text' in m.to ? m.to.text : '', m.text?.split('\n')[1]])).toEqual([['jorge.munoz@example.cl', 'Tu correo registrado fue eliminado.']]);
    });

    it('leaves no line and no notice for a row it refuses: they are written with the change or not at all', async () => {
      // The account is another member's: the row is refused whole after its name and e-mail were compared.
      const res = await post([{ rut: '19.191.919-K', nombre: 'Otra Persona', correo: 'otra.persona@example.com', cuenta: { numeroCuenta: '000031245602', saldo: 1 } }]);
      expect(res.json().operacionesResponse.rechazados).toEqual([{ fila: 1, rut: maskRut('19191919-K'), motivos: ['la cuenta 000031245602 pertenece a otro socio'] }]);
      expect((await trailOf('19191919-K')).filter((e) => e.kind.startsWith('importacion.'))).toEqual([]);
      expect(await t.database.db.$count(mailQueue)).toBe(0);
      const [member] = await t.database.db.select().from(members).where(eq(members.rut, '19191919-K'));
      expect(member).toMatchObject({ name: 'Sofía Herrera Campos', email: 'sofia.herrera@example.cl' });
    });
  });

  // Issue 48: a code the load planted enrolled a new phone in place of the member's.
  it('refuses a row that carries an enrolment code, so no device can enrol with it', async () => {
    const phone = await enrolDevice(t.app, '19191919-K');
    const letter = 'QRST-MNOP-IJKL-EFGH-ABCD';
    const res = await post([{ rut: '19.191.919-K', nombre: 'Sofía Herrera Campos', correo: 'sofia.herrera@example.cl', codigoEnrolamiento: letter }], await loadToken());
    expect(res.json().operacionesResponse).toMatchObject({
      aceptados: 0,
      rechazados: [{ fila: 1, rut: maskRut('19191919-K'), motivos: ['codigoEnrolamiento: no se acepta en la carga: el código de enrolamiento se genera en la consola'] }],
    });
    expect(await t.database.db.$count(authoriserEnrolmentCodes, eq(authoriserEnrolmentCodes.issuedBy, 'importacion'))).toBe(0);

    const intruder = await AuthoriserDevice.create();
    expect(errorCode(await t.app.inject({ method: 'POST', url: ENROLAR_PATH, payload: await intruder.enrolment(letter) }), ENROLAR_RESPONSE)).toBe('520');
    // The member's own phone is still the active one.
    expect(await devicePending(t.app, phone)).toEqual([]);
    expect(await t.database.db.$count(authoriserDevices, sql`${authoriserDevices.revokedAt} is null`)).toBe(1);

    // From a CSV file too: a filled column is refused with the reason, not dropped unseen.
    const csv = `rut,nombre,correo,codigoEnrolamiento\n19.191.919-K,Sofía Herrera Campos,sofia.herrera@example.cl,${letter}\n11.111.111-1,Camila Rojas Pérez,camila.rojas@example.cl,\n`;
    const fromCsv = (await post(readLoad('carga.csv', csv))).json().operacionesResponse;
    expect(fromCsv).toMatchObject({ aceptados: 1, rechazados: [{ fila: 1, motivos: [expect.stringMatching(/^codigoEnrolamiento: no se acepta/)] }] });
  });

  it('imports valid rows, reports the rejected ones row by row, and is idempotent', async () => {
    const rows = readLoad('carga.csv', CSV);
    expect(rows).toHaveLength(3);
    const first = (await post(rows)).json().operacionesResponse;
    expect(first.recibidos).toBe(3);
    expect(first.aceptados).toBe(1);
    expect(first.rechazados.map((r: { fila: number }) => r.fila)).toEqual([2, 3]);
    expect(first.rechazados[0].motivos.join()).toContain('RUT inválido');
    expect(first.rechazados[1].motivos.join()).toContain('pertenece a otro socio');

    const counts = async () => ({
      members: await t.database.db.$count(members),
      products: await t.database.db.$count(products),
      instalments: await t.database.db.$count(instalments),
      accounts: await t.database.db.$count(accounts),
    });
    const after = await counts();
    await post(rows);
    expect(await counts()).toEqual(after);

    const { productos } = await listProducts(t.app, '5126663-3');
    expect(productos.map((p) => p.tipoFamiliaProducto).sort()).toEqual(['AH', 'PC']);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.numeroCuenta, '000099990001'));
    expect(account?.saldo).toBe(250_000);
  });

  it('reflects the core system: a paid instalment (montoPendiente 0) leaves the list', async () => {
    const load = (firstPending: number) => [
      {
        rut: '5126663-3',
        nombre: 'Ana Soto',
        productos: [
          {
            familia: 'PC',
            numeroProducto: '410055550001',
            cuotas: [
              { numeroCuota: 1, monto: 40000, montoPendiente: firstPending, fechaVencimiento: '20301201' },
              { numeroCuota: 2, monto: 40000, fechaVencimiento: '20310101' },
            ],
          },
        ],
      },
    ];
    await post(load(40000));
    await post(load(0));
    const { productos } = await listProducts(t.app, '5126663-3');
    const pc = productos.find((p) => p.tipoFamiliaProducto === 'PC')!;
    expect((pc.listaDetalleProductos as { numeroCuota: number }[]).map((d) => d.numeroCuota)).toEqual([2]);
  });

  // Found by the fuzz: such rows reached the database, and the answer carried the failed query with its parameters.
  it('refuses amounts a number cannot hold exactly and text the database cannot hold, row by row', async () => {
    const good = { rut: '6.234.567-5', nombre: 'Rosa Vega', cuenta: { numeroCuenta: '000099990007', saldo: 2_147_483_648 } };
    const cuota = (numeroCuota: number) => ({ numeroCuota, monto: 2 ** 52, fechaVencimiento: '20301201' });
    const before = await t.database.db.$count(members);
    const res = await post([
      { rut: '6.234.567-5', nombre: 'Rosa Vega', cuenta: { numeroCuenta: '000099990008', saldo: Number.MAX_SAFE_INTEGER + 1 } },
      { rut: '6.234.567-5', nombre: 'Rosa\u0000Vega' },
      { rut: '6.234.567-5', nombre: 'Rosa \ud800Vega' },
      { rut: '6.234.567-5', nombre: 'Rosa Vega', productos: [{ familia: 'PC', numeroProducto: '410055550009', cuotas: [cuota(1), cuota(2)] }] },
      good,
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/Failed query|insert into|params|6234567/);
    const report = res.json().operacionesResponse;
    expect(report.aceptados).toBe(1);
    expect(report.rechazados.map((r: { motivos: string[] }) => r.motivos)).toEqual([
      ['cuenta.saldo: monto fuera de rango'],
      ['nombre: caracteres no válidos'],
      ['nombre: caracteres no válidos'],
      ['productos.0: deuda total fuera de rango'],
    ]);
    expect(await t.database.db.$count(members)).toBe(before + 1);
    // Past 2^31: the money columns are bigint.
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.numeroCuenta, '000099990007'));
    expect(account?.saldo).toBe(2_147_483_648);
  });

  it('reports a row the database refuses with a plain reason, never the query or its values, and saves the others', async () => {
    // A trigger stands for any refusal the schema did not foresee.
    await t.database.db.execute(sql`create function refuse_account() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`);
    await t.database.db.execute(sql`create trigger refuse_account before insert on accounts for each row when (new.numero_cuenta = '000099990009') execute function refuse_account()`);
    try {
      const res = await post([
        { rut: '8.765.432-K', nombre: 'Pedro Lagos', correo: 'pedro@example.cl', cuenta: { numeroCuenta: '000099990009', saldo: 1 } },
        { rut: '8.765.432-K', nombre: 'Pedro Lagos' },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/Failed query|insert into|params|refused|8765432|pedro@/);
      const report = res.json().operacionesResponse;
      expect(report.aceptados).toBe(1);
      expect(report.rechazados).toEqual([{ fila: 1, rut: '****432-K', motivos: ['la fila no se pudo guardar'] }]);
      // The refused row was rolled back whole: the member the second row created has no e-mail from the first.
      const [member] = await t.database.db.select().from(members).where(eq(members.rut, '8765432-K'));
      expect(member?.email).toBeNull();
    } finally {
      await t.database.db.execute(sql`drop trigger refuse_account on accounts`);
      await t.database.db.execute(sql`drop function refuse_account()`);
    }
  });

  it('refuses a malformed load with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/admin/importacion', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { socios: 'no' } });
    expect(res.statusCode).toBe(400);
  });
});
