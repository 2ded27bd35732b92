import { describe, expect, it } from 'vitest';
import { buildSimulator } from './app';

describe('webpay simulator', () => {
  it('answers its health route', async () => {
    const app = buildSimulator();
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', service: 'webpay-sim' });
    await app.close();
  });
});
