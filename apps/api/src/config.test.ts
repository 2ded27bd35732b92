import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SANDBOX_ADMIN_TOKEN } from './config';

const PRODUCTION = {
  NODE_ENV: 'production',
  ADMIN_TOKEN: 'a-real-admin-token-of-enough-length',
  ALTCHA_HMAC_SECRET: 'x'.repeat(40),
  WEBPAY_COMMERCE_CODE: '597012345678',
  WEBPAY_API_KEY: 'a-real-webpay-api-key',
  SMTP_URL: 'smtp://mail.cooperativa.example:587',
  DATABASE_URL: 'postgres://app@db/pago',
};

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return null;
};

describe('configuration at boot', () => {
  it('boots in production with every secret, sandbox off', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.sandbox).toBe(false);
    expect(config.seedDemo).toBe(false);
    expect(config.adminToken).toBe(PRODUCTION.ADMIN_TOKEN);
  });

  it.each(['ADMIN_TOKEN', 'ALTCHA_HMAC_SECRET', 'WEBPAY_COMMERCE_CODE', 'WEBPAY_API_KEY', 'SMTP_URL'])(
    'refuses to boot in production without %s, naming it',
    (name) => {
      const env: Record<string, string> = { ...PRODUCTION };
      delete env[name];
      expect(refusal(env)).toContain(name);
    },
  );

  it('never uses the sandbox admin token in production, even with SANDBOX=1', () => {
    const env: Record<string, string> = { ...PRODUCTION, SANDBOX: '1' };
    delete env.ADMIN_TOKEN;
    expect(refusal(env)).toContain('ADMIN_TOKEN');
    expect(loadConfig({ SANDBOX: '1' }).adminToken).toBe(SANDBOX_ADMIN_TOKEN);
  });

  it('names a malformed variable', () => {
    expect(refusal({ SANDBOX: '1', PORT: 'abc' })).toContain('PORT');
    expect(refusal({ SANDBOX: '1', DATABASE_URL: 'mysql://x' })).toContain('DATABASE_URL');
    expect(refusal({ SANDBOX: '1', ADMIN_TOKEN: 'short' })).toContain('ADMIN_TOKEN');
    expect(refusal({ SANDBOX_CLOCK: '2026-01-01T12:00:00Z', ADMIN_TOKEN: 'x'.repeat(20) })).toContain('SANDBOX_CLOCK');
  });
});
