import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { appPerTest, DATABASE_KINDS } from '../../../test/support/test-app';

describe.each(DATABASE_KINDS)('POST /prod/auditoria/guardarlog on %s', (kind) => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest(kind);

  it('stores the report with the RUT masked and personal data scrubbed', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/prod/auditoria/guardarlog',
      payload: {
        guardarLogRequest: {
          idPlataforma: 'PGEX-WEB',
          origenLlamada: '/pagoexpress/stepthree/PC',
          destinoLlamada: '/prod/producto/seleccionar',
          nivelLog: 'ERROR',
          detalleLog: 'código 463 para 11.111.111-1 camila@example.cl',
          rut: '11111111-1',
        },
      },
    });
    expect(res.json()).toEqual({ guardarLogResponse: { codigo: '200' } });
    const [row] = await t.database.db.select().from(auditLog).where(eq(auditLog.kind, 'navegador.log'));
    expect(row?.rutMasked).toBe('*****111-1');
    expect(JSON.stringify(row?.detail)).not.toMatch(/11\.111\.111-1|camila/);
    expect(row?.detail).toMatchObject({ nivel: 'ERROR', detalle: 'código 463 para [rut] [correo]' });
  });

  it('refuses a malformed report with 400 and writes nothing', async () => {
    const before = await t.database.db.$count(auditLog);
    const res = await t.app.inject({ method: 'POST', url: '/prod/auditoria/guardarlog', payload: { guardarLogRequest: { nivelLog: 'PANIC' } } });
    expect(res.statusCode).toBe(400);
    expect(await t.database.db.$count(auditLog)).toBe(before);
  });
});
