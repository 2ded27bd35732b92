import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthoriserDevice } from '../../test/support/authoriser-device';
import { devicePending } from '../../test/support/member-calls';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../test/support/test-app';

const run = promisify(execFile);
const ADMIN = fileURLToPath(new URL('./admin.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));

describe('the operator CLI for the mobile authoriser', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  const admin = (...args: string[]) => run(TSX, [ADMIN, ...args], { env: { ...process.env, API_URL: url, ADMIN_TOKEN: TEST_ADMIN_TOKEN } });

  it('issues a code a phone enrols with, lists the device, and revokes it', async () => {
    const issued = await admin('authoriser', 'code', '14.141.414-3');
    const codigo = /^([A-Z2-7]{4}(?:-[A-Z2-7]{4}){4}) \(valid 7 days, once\)$/.exec(issued.stdout.trim())?.[1];
    expect(codigo, issued.stdout).toBeDefined();
    const phone = await AuthoriserDevice.create();
    const enrolled = await t.app.inject({ method: 'POST', url: '/api/autorizador/enrolar', payload: await phone.enrolment(codigo!) });
    phone.dispositivo = enrolled.json().enrolarDispositivoResponse.dispositivo;

    const listed = (await admin('authoriser', 'devices', '14141414-3')).stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: string; revocado: string | null });
    expect(listed).toEqual([expect.objectContaining({ id: phone.dispositivo, revocado: null })]);
    expect((await admin('authoriser', 'revoke', phone.dispositivo!)).stdout.trim()).toBe(`${phone.dispositivo}: revoked`);
    await expect(devicePending(t.app, phone)).rejects.toThrow(/521/);
    // A member who is not there: the API's 404, said by the CLI with exit code 1.
    await expect(admin('authoriser', 'code', '1-9')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('404') });
  });
});
