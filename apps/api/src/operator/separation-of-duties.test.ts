import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ENROLAR_PATH } from '@pago/domain/call-autorizador';
import { auditLog, authoriserDevices, mailQueue, machineTokens, members, operatorRoles, parameters } from '../db/schema';
import { AuthoriserDevice } from '../../test/support/authoriser-device';
import { asOperator, operatorSession, type OperatorSession } from '../../test/support/operator-session';
import { appPerTest, DATABASE_KINDS } from '../../test/support/test-app';

// Four eyes are two people (issue 48): a token acts for the person who asked for it, granting anything takes a
// second administrator, and nobody grants themselves anything.
describe.each(DATABASE_KINDS)('no single person moves money or grants themselves a permission, on %s', (kind) => {
  const t = appPerTest(kind);
  const op = () => t.app.operator;
  const post = (who: OperatorSession | string, url: string, payload?: object) =>
    op().inject({ method: 'POST', url, headers: typeof who === 'string' ? { authorization: `Bearer ${who}` } : asOperator(who), ...(payload ? { payload } : {}) });
  const valueOf = async (nombre: string) => (await t.database.db.select().from(parameters).where(eq(parameters.nombre, nombre)))[0]?.valor;
  const auditKinds = async () => (await t.database.db.select({ kind: auditLog.kind }).from(auditLog)).map((l) => l.kind);

  async function askToken(who: OperatorSession, nombre: string, alcances: string[]) {
    const res = await post(who, '/admin/tokens', { nombre, alcances });
    return { res, body: res.statusCode === 202 ? (res.json().consolaResponse as { token: { id: string }; secreto: string; cambio: { id: string } }) : null };
  }

  it('refuses an administrator a token with a permission their roles lack, and their own roles', async () => {
    const admin = await operatorSession(op(), 'admin');
    for (const alcances of [['parametros.cambiar'], ['socios.ver'], ['webpay.devolver', 'auditoria.ver'], ['importacion']]) {
      const { res } = await askToken(admin, 'puerta-trasera', alcances);
      expect(res.statusCode, alcances.join()).toBe(403);
      expect(res.json().consolaResponse.error.errores.detalleError.descripcion).toContain(alcances[0]);
    }
    expect(await t.database.db.select().from(machineTokens)).toEqual([]);

    const own = await op().inject({ method: 'PUT', url: '/admin/operadores/admin/roles', headers: asOperator(admin), payload: { roles: ['admin', 'operaciones', 'finanzas'] } });
    expect(own.statusCode).toBe(403);
    expect(await t.database.db.select().from(operatorRoles)).toEqual([]);
    expect(await auditKinds()).toEqual(expect.arrayContaining(['token.rechazado', 'operador.roles.rechazado']));
  });

  it('makes a token wait for a second administrator; its own asker never approves it', async () => {
    const admin = await operatorSession(op(), 'admin');
    const admin2 = await operatorSession(op(), 'admin2');
    const { body } = await askToken(admin, 'lectura-auditoria', ['auditoria.ver']);
    expect(body).not.toBeNull();
    const bearer = body!.secreto;
    expect((await op().inject({ method: 'GET', url: '/admin/auditoria', headers: { authorization: `Bearer ${bearer}` } })).statusCode).toBe(401);
    expect((await post(admin, `/admin/cambios/${body!.cambio.id}/aprobar`)).statusCode).toBe(403);
    // Another role cannot approve a token either.
    expect((await post(await operatorSession(op(), 'operaciones'), `/admin/cambios/${body!.cambio.id}/aprobar`)).statusCode).toBe(403);
    expect((await op().inject({ method: 'GET', url: '/admin/auditoria', headers: { authorization: `Bearer ${bearer}` } })).statusCode).toBe(401);
    const approved = await post(admin2, `/admin/cambios/${body!.cambio.id}/aprobar`);
    expect(approved.json().cambiosResponse.cambio).toMatchObject({ tipo: 'token', estado: 'aprobado', propuestoPor: 'Alberto Admin', decididoPor: 'Adriana Admin' });
    expect((await op().inject({ method: 'GET', url: '/admin/auditoria', headers: { authorization: `Bearer ${bearer}` } })).statusCode).toBe(200);
    // A token asks for no token.
    expect((await post(bearer, '/admin/tokens', { nombre: 'hijo', alcances: ['auditoria.ver'] })).statusCode).toBe(403);

    // A rejected one never opens anything.
    const rejected = await askToken(admin2, 'otro-token', ['resumen.ver']);
    expect((await post(admin, `/admin/cambios/${rejected.body!.cambio.id}/rechazar`)).statusCode).toBe(200);
    expect((await op().inject({ method: 'GET', url: '/admin/resumen', headers: { authorization: `Bearer ${rejected.body!.secreto}` } })).statusCode).toBe(401);
  });

  it('treats what a token proposes as its asker’s: that person cannot approve it with their session', async () => {
    const oscar = await operatorSession(op(), 'operaciones');
    const { body } = await askToken(oscar, 'automatizacion', ['parametros.cambiar', 'parametros.ver']);
    expect((await post(await operatorSession(op(), 'admin'), `/admin/cambios/${body!.cambio.id}/aprobar`)).statusCode).toBe(200);
    const proposed = await op().inject({ method: 'PUT', url: '/admin/parametros/pagoWPDebitoCredito', headers: { authorization: `Bearer ${body!.secreto}` }, payload: { valor: '597000000001' } });
    expect(proposed.statusCode).toBe(202);
    const cambio = proposed.json().parametrosResponse.cambio;
    expect(cambio.propuestoPor).toBe('token automatizacion (Óscar Operaciones)');

    const inbox = await op().inject({ method: 'GET', url: '/admin/cambios', headers: { cookie: oscar.cookie } });
    expect(inbox.json().cambiosResponse.cambios.find((c: { id: string }) => c.id === cambio.id)).toMatchObject({ propio: true });
    const self = await post(oscar, `/admin/cambios/${cambio.id}/aprobar`);
    expect(self.statusCode).toBe(403);
    expect((await post(oscar, `/admin/cambios/${cambio.id}/rechazar`)).statusCode).toBe(403);
    expect(await valueOf('pagoWPDebitoCredito')).not.toBe('597000000001');
    expect(await auditKinds()).toContain('cambio.decision.rechazada');

    const olga = await operatorSession(op(), 'operaciones2');
    expect((await post(olga, `/admin/cambios/${cambio.id}/aprobar`)).statusCode).toBe(200);
    expect(await valueOf('pagoWPDebitoCredito')).toBe('597000000001');
  });

  it('changes an operator’s roles only through a second administrator, ending their sessions and the tokens beyond them', async () => {
    const olga = await operatorSession(op(), 'operaciones2');
    const { body } = await askToken(olga, 'olga-parametros', ['parametros.cambiar']);
    const kept = await askToken(olga, 'olga-resumen', ['resumen.ver']);
    const admin = await operatorSession(op(), 'admin');
    const admin2 = await operatorSession(op(), 'admin2');
    for (const asked of [body!, kept.body!]) expect((await post(admin, `/admin/cambios/${asked.cambio.id}/aprobar`)).statusCode).toBe(200);

    const proposed = await op().inject({ method: 'PUT', url: '/admin/operadores/operaciones2/roles', headers: asOperator(admin), payload: { roles: ['agente'] } });
    expect(proposed.statusCode).toBe(202);
    const cambio = proposed.json().consolaResponse.cambio;
    expect(cambio).toMatchObject({ tipo: 'roles_operador', objetivo: 'operaciones2', propuesta: { roles: ['agente'], anteriores: [] } });
    // Until approved nothing changes; the proposer cannot approve it, nor can the one whose roles it changes.
    expect((await op().inject({ method: 'GET', url: '/admin/parametros', headers: { cookie: olga.cookie } })).statusCode).toBe(200);
    expect((await post(admin, `/admin/cambios/${cambio.id}/aprobar`)).statusCode).toBe(403);

    const approved = await post(admin2, `/admin/cambios/${cambio.id}/aprobar`);
    expect(approved.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(operatorRoles).where(eq(operatorRoles.subject, 'operaciones2'));
    expect(row?.roles).toEqual(['agente']);
    // Her session ends at once; the token that parametros.cambiar no longer allows is revoked, the other kept.
    expect((await op().inject({ method: 'GET', url: '/admin/parametros', headers: { cookie: olga.cookie } })).statusCode).toBe(401);
    expect((await op().inject({ method: 'GET', url: '/admin/parametros', headers: { authorization: `Bearer ${body!.secreto}` } })).statusCode).toBe(401);
    expect((await op().inject({ method: 'GET', url: '/admin/resumen', headers: { authorization: `Bearer ${kept.body!.secreto}` } })).statusCode).toBe(200);
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'operador.roles'));
    expect(line?.detail).toMatchObject({ sujeto: 'operaciones2', roles: ['agente'], tokensRevocados: ['olga-parametros'], operador: 'Alberto Admin', aprobadoPor: 'Adriana Admin' });
    expect(Number((line?.detail as { sesionesTerminadas: number }).sesionesTerminadas)).toBeGreaterThanOrEqual(1);
  });

  it('sends an enrolment code to the member only once a second operator approves it; nobody at the cooperative sees it', async () => {
    const rut = '14141414-3';
    const oscar = await operatorSession(op(), 'operaciones');
    const proposed = await post(oscar, `/admin/socios/${rut}/autorizador/codigo`, { motivo: 'El socio cambió de teléfono' });
    expect(proposed.statusCode).toBe(202);
    const cambio = proposed.json().operacionesResponse.cambio;
    expect(cambio).toMatchObject({ tipo: 'codigo_autorizador', propuesta: { socio: '*****414-3' } });
    expect(proposed.body).not.toContain('14141414');
    expect(await t.database.db.select().from(mailQueue)).toEqual([]);
    expect((await post(oscar, `/admin/cambios/${cambio.id}/aprobar`)).statusCode).toBe(403);
    // A token Óscar asked for is Óscar too.
    const { body } = await askToken(oscar, 'codigos', ['autorizador.gestionar']);
    expect((await post(await operatorSession(op(), 'admin'), `/admin/cambios/${body!.cambio.id}/aprobar`)).statusCode).toBe(200);
    const byToken = await post(body!.secreto, '/admin/socios/9876543-3/autorizador/codigo');
    expect((await post(oscar, `/admin/cambios/${byToken.json().operacionesResponse.cambio.id}/aprobar`)).statusCode).toBe(403);

    const approved = await post(await operatorSession(op(), 'operaciones2'), `/admin/cambios/${cambio.id}/aprobar`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().cambiosResponse.cambio.estado).toBe('aprobado');
    const mails = await t.database.db.select().from(mailQueue);
    expect(mails.map((m) => m.to)).toEqual(['tomas.vargas@example.cl']);
    const codigo = /([A-Z2-7]{4}(?:-[A-Z2-7]{4}){4})/.exec(mails[0]!.text)?.[1];
    expect(codigo).toBeDefined();
    // The code is in no answer and no audit line.
    expect(approved.body).not.toContain(codigo!);
    expect(JSON.stringify(await t.database.db.select().from(auditLog))).not.toContain(codigo!);
    const phone = await AuthoriserDevice.create();
    const enrolled = await t.app.inject({ method: 'POST', url: ENROLAR_PATH, headers: { 'content-type': 'application/json' }, payload: await phone.enrolment(codigo!) });
    expect(enrolled.statusCode).toBe(200);
    expect(await t.database.db.$count(authoriserDevices)).toBe(1);

    // A member with no e-mail gets no proposal: there is nowhere to send the code.
    await t.database.db.update(members).set({ email: null }).where(eq(members.rut, '17171717-5'));
    expect((await post(oscar, '/admin/socios/17171717-5/autorizador/codigo', { motivo: 'El socio cambió de teléfono' })).statusCode).toBe(409);
  });

  it('lets nobody approve a change of their own roles', async () => {
    const admin = await operatorSession(op(), 'admin');
    const admin2 = await operatorSession(op(), 'admin2');
    const proposed = await op().inject({ method: 'PUT', url: '/admin/operadores/admin2/roles', headers: asOperator(admin), payload: { roles: ['admin', 'finanzas'] } });
    expect(proposed.statusCode).toBe(202);
    const decided = await post(admin2, `/admin/cambios/${proposed.json().consolaResponse.cambio.id}/aprobar`);
    expect(decided.statusCode).toBe(403);
    expect(await t.database.db.select().from(operatorRoles)).toEqual([]);
    const refusals = await t.database.db.select().from(auditLog).where(sql`${auditLog.kind} = 'cambio.decision.rechazada'`);
    expect(refusals.map((l) => l.detail)).toEqual([expect.objectContaining({ motivo: 'own_roles', operador: 'Adriana Admin' })]);
  });
});
