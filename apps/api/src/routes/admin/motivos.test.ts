import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, machineTokens, members } from '../../db/schema';
import { asOperator, operatorSession } from '../../../test/support/operator-session';
import { appPerTest, DATABASE_KINDS } from '../../../test/support/test-app';

// Actions that change a member or money: a person gives a reason, which the audit trail keeps.
describe.each(DATABASE_KINDS)('reasons for staff actions on %s', (kind) => {
  const t = appPerTest(kind);
  const op = () => t.app.operator;

  it('refuses a person’s unblock without a reason, changing nothing; with one, the audit line keeps it', async () => {
    const agente = await operatorSession(op(), 'agente');
    const unblock = (payload?: object) => op().inject({ method: 'POST', url: '/admin/socios/13.579.246-2/desbloquear-clave', headers: asOperator(agente), ...(payload ? { payload } : {}) });
    const blockedAt = async () => (await t.database.db.select().from(members).where(eq(members.rut, '13579246-2')))[0]!.passwordBlockedAt;
    for (const payload of [undefined, {}, { motivo: '  ab ' }, { motivo: 'x'.repeat(301) }, { motivo: 'Llamó el socio', otro: 1 }]) {
      const refused = await unblock(payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await blockedAt()).not.toBeNull();
    const done = await unblock({ motivo: 'El socio llamó y confirmó su identidad' });
    expect(done.statusCode, done.body).toBe(200);
    expect(await blockedAt()).toBeNull();
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'admin.clave.desbloqueada'));
    expect(line?.detail).toMatchObject({ operador: 'Ana Agente', motivo: 'El socio llamó y confirmó su identidad' });
  });

  it('asks a reason of a parameter proposal, and keeps the current value and the reason in the change and the trail', async () => {
    const maker = await operatorSession(op(), 'operaciones');
    const put = (payload: object) => op().inject({ method: 'PUT', url: '/admin/parametros/Mantencion', headers: asOperator(maker), payload });
    expect((await put({ valor: '1' })).statusCode).toBe(400);
    const proposed = await put({ valor: '1', motivo: 'Mantención del core esta noche' });
    expect(proposed.statusCode, proposed.body).toBe(202);
    expect(proposed.json().parametrosResponse.cambio.propuesta).toEqual({ valor: '1', anterior: '0', motivo: 'Mantención del core esta noche' });
    const checker = await operatorSession(op(), 'operaciones2');
    const approved = await op().inject({ method: 'POST', url: `/admin/cambios/${proposed.json().parametrosResponse.cambio.id}/aprobar`, headers: asOperator(checker) });
    expect(approved.statusCode, approved.body).toBe(200);
    const [line] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'admin.parametro.actualizado'));
    expect(line?.detail).toMatchObject({ nombre: 'Mantencion', anterior: '0', valor: '1', motivo: 'Mantención del core esta noche', aprobadoPor: 'Olga Operaciones' });
  });

  it('gives a token exactly the permissions asked for, none added', async () => {
    const asking = await operatorSession(op(), 'operaciones');
    const res = await op().inject({ method: 'POST', url: '/admin/tokens', headers: asOperator(asking), payload: { nombre: 'solo-parametros', alcances: ['parametros.ver', 'parametros.cambiar'] } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().consolaResponse.token.alcances).toEqual(['parametros.ver', 'parametros.cambiar']);
    const [row] = await t.database.db.select().from(machineTokens).where(eq(machineTokens.name, 'solo-parametros'));
    expect(row?.scopes).toEqual(['parametros.ver', 'parametros.cambiar']);
  });
});
