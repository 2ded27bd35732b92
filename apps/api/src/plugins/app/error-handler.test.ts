import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app';

describe('a database that cannot take writes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 with the envelope and Retry-After, as a node that has just stopped being the primary does', async () => {
    // What a demoted node answers every write: 25006, read-only transaction.
    await t.database.db.execute(sql`set default_transaction_read_only = on`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/prod/auditoria/guardarlog',
      payload: { guardarLogRequest: { idPlataforma: 'web', origenLlamada: 'a', destinoLlamada: 'b', nivelLog: 'INFO', detalleLog: 'x', rut: '' } },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json().guardarLogResponse.error.errores.detalleError.codigo).toBe('503');
    await t.database.db.execute(sql`set default_transaction_read_only = off`);
  });
});
