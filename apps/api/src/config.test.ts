import { describe, expect, it } from 'vitest';
import { checkProductionHosts, ConfigError, isLocalUrl, isWeakSecret, loadConfig, SANDBOX_ADMIN_TOKEN, type HostLookup } from './config';

const PRODUCTION = {
  NODE_ENV: 'production',
  ALTCHA_HMAC_SECRET: '9f2c4e7a1b8d3f6e0a5c9b2d7e4f1a8c3b6d0e9f',
  WEBPAY_COMMERCE_CODE: '597012345678',
  WEBPAY_API_KEY: 'a-real-webpay-api-key',
  SMTP_URL: 'smtps://mail.cooperativa.example:465',
  DATABASE_URL: 'postgres://app@db/pago',
  WEBPAY_BASE_URL: 'https://webpay3g.transbank.cl',
  PUBLIC_BASE_URL: 'https://pago.cooperativa.example',
  PRODUCT_SITE_URL: 'https://www.cooperativa.example/',
  PRODUCT_PASSWORD_RECOVERY_URL: 'https://www.cooperativa.example/clave',
  CORE_BASE_URL: 'https://core.cooperativa.example/fineract-provider/api',
  CORE_USERNAME: 'pago-online',
  CORE_PASSWORD: 'a-core-password',
  CORE_TENANT: 'cooperativa',
  OIDC_ISSUER: 'https://login.cooperativa.example/realms/staff',
  OIDC_CLIENT_ID: 'pago-online-operador',
  OIDC_CLIENT_SECRET: 'an-oidc-client-secret-of-32-chars',
  OIDC_ROLES_CLAIM: 'roles',
  OPERATOR_BASE_URL: 'https://operador.cooperativa.example',
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
    expect(config.adminToken).toBeNull();
    // The operator's surfaces on a port of their own, on this host only, unless told otherwise.
    expect(config.operatorListener).toEqual({ host: '127.0.0.1', port: 3100 });
    expect(loadConfig({ ...PRODUCTION, ADMIN_PORT: '9100', ADMIN_HOST: '10.0.0.5' }).operatorListener).toEqual({ host: '10.0.0.5', port: 9100 });
  });

  it('shares the member’s port outside production unless ADMIN_PORT is set, and never takes PORT for ADMIN_PORT', () => {
    expect(loadConfig({ NODE_ENV: 'test', SANDBOX: '1' }).operatorListener).toBeNull();
    expect(refusal({ ...PRODUCTION, PORT: '3000', ADMIN_PORT: '3000' })).toContain('ADMIN_PORT');
  });

  it.each(['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLES_CLAIM', 'OPERATOR_BASE_URL', 'ALTCHA_HMAC_SECRET', 'WEBPAY_COMMERCE_CODE', 'WEBPAY_API_KEY', 'SMTP_URL', 'CORE_BASE_URL', 'CORE_USERNAME', 'CORE_PASSWORD', 'CORE_TENANT', 'DATABASE_URL'])(
    'refuses to boot in production without %s, naming it',
    (name) => {
      const env: Record<string, string> = { ...PRODUCTION };
      delete env[name];
      expect(refusal(env)).toContain(name);
    },
  );

  it.each(['http://localhost:3002/fineract-provider/api', 'http://[::ffff:127.0.0.1]:3002/fineract-provider/api', 'http://127.0.0.2:3002/fineract-provider/api'])(
    'refuses the core simulator in production (%s), naming CORE_BASE_URL',
    (url) => {
      expect(refusal({ ...PRODUCTION, CORE_BASE_URL: url })).toContain('CORE_BASE_URL');
    },
  );

  it('points at the core simulator with its demo credentials outside production, and at the configured core in it', () => {
    expect(loadConfig({ NODE_ENV: 'test', SANDBOX: '1' }).core).toMatchObject({ baseUrl: 'http://localhost:3002/fineract-provider/api', username: 'mifos', password: 'password', tenant: 'default' });
    expect(loadConfig(PRODUCTION).core).toMatchObject({ baseUrl: PRODUCTION.CORE_BASE_URL, username: 'pago-online', tenant: 'cooperativa' });
  });

  it('refuses the bootstrap ADMIN_TOKEN in production, naming it, and keeps it for the sandbox and development', () => {
    expect(loadConfig(PRODUCTION).adminToken).toBeNull();
    for (const token of [SANDBOX_ADMIN_TOKEN, 'a-real-admin-token-of-enough-length']) {
      expect(refusal({ ...PRODUCTION, ADMIN_TOKEN: token })).toMatch(/ADMIN_TOKEN.*must not be set in production: issue named machine tokens/);
    }
    expect(loadConfig({ NODE_ENV: 'development', SANDBOX: '1' }).adminToken).toBe(SANDBOX_ADMIN_TOKEN);
    expect(loadConfig({ NODE_ENV: 'development', ADMIN_TOKEN: 'a-development-admin-token' }).adminToken).toBe('a-development-admin-token');
  });

  it('names every missing OIDC variable of a production boot, and refuses the embedded provider there', () => {
    const { OIDC_ISSUER: _i, OIDC_CLIENT_ID: _c, OIDC_CLIENT_SECRET: _s, OIDC_ROLES_CLAIM: _r, ...withoutOidc } = PRODUCTION;
    const message = refusal(withoutOidc);
    for (const name of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLES_CLAIM']) expect(message, name).toContain(`  ${name}: `);
    // Even with SANDBOX-like defaults refused, production never falls back to the embedded provider.
    expect(refusal({ ...withoutOidc, SANDBOX: '1' })).toContain('OIDC_ISSUER');
    expect(refusal({ ...PRODUCTION, OIDC_ISSUER: 'http://login.cooperativa.example' })).toContain('OIDC_ISSUER');
    const production = loadConfig(PRODUCTION).operatorConsole;
    expect(production.provider).toMatchObject({ issuer: PRODUCTION.OIDC_ISSUER, embedded: false });
    // Multi-factor is required in production (OIDC_REQUIRE_MFA=0 is refused there, below).
    expect(production.requireMfa).toBe(true);
    const sandbox = loadConfig({ NODE_ENV: 'test', SANDBOX: '1' }).operatorConsole;
    expect(sandbox.provider).toMatchObject({ issuer: 'http://localhost:3000/sandbox/oidc', embedded: true });
    expect(sandbox.requireMfa).toBe(false);
    // Outside the sandbox with no provider, the console has no sign-in.
    expect(loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN: 'x'.repeat(20) }).operatorConsole.provider).toBeNull();
  });

  it.each([
    ['SANDBOX', '1'],
    ['SEED_DEMO', '1'],
    ['WEBPAY_BASE_URL', 'http://localhost:3001'],
    ['WEBPAY_BASE_URL', 'http://127.0.0.1:3001'],
    ['PUBLIC_BASE_URL', 'http://localhost:3000'],
    ['PUBLIC_BASE_URL', 'http://[::1]:3000'],
    ['PRODUCT_SITE_URL', 'http://localhost:3000/sandbox/sitio'],
    ['PRODUCT_PASSWORD_RECOVERY_URL', 'http://127.0.0.1:3000/sandbox/sitio/recuperar-clave'],
  ])('refuses to boot in production with the sandbox switch %s=%s, naming it', (name, value) => {
    expect(refusal({ ...PRODUCTION, [name]: value })).toContain(name);
  });

  it.each([
    ['WEBPAY_BASE_URL', 'http://[::ffff:127.0.0.1]:3001'],
    ['WEBPAY_BASE_URL', 'https://[::ffff:7f00:1]'],
    ['WEBPAY_BASE_URL', 'https://[::127.0.0.1]'],
    ['WEBPAY_BASE_URL', 'https://[0:0:0:0:0:0:0:1]'],
    ['WEBPAY_BASE_URL', 'https://[::]'],
    ['WEBPAY_BASE_URL', 'https://2130706433'],
    ['WEBPAY_BASE_URL', 'https://0x7f.1'],
    ['WEBPAY_BASE_URL', 'https://localhost.'],
    ['WEBPAY_BASE_URL', 'http://webpay3g.transbank.cl'],
    ['PUBLIC_BASE_URL', 'http://pago.cooperativa.example'],
    ['PUBLIC_BASE_URL', 'https://[::ffff:127.0.0.1]'],
    ['ALTCHA_COUNTER_MIN', '1'],
    ['ALTCHA_COUNTER_MAX', '1'],
  ])('refuses to boot in production with %s=%s, naming it', (name, value) => {
    const env = { ...PRODUCTION, [name]: value, ...(name === 'ALTCHA_COUNTER_MIN' && { ALTCHA_COUNTER_MAX: '1' }) };
    expect(refusal(env)).toContain(`  ${name}: `);
  });

  it('accepts a small proof of work and plain http outside production', () => {
    expect(() => loadConfig({ NODE_ENV: 'development', SANDBOX: '1', ALTCHA_COUNTER_MIN: '1', ALTCHA_COUNTER_MAX: '1', PUBLIC_BASE_URL: 'http://pago.test' })).not.toThrow();
    expect(isLocalUrl('https://webpay3g.transbank.cl')).toBe(false);
    expect(isLocalUrl('https://[2001:db8::1]')).toBe(false);
  });

  it('refuses production with the defaults that point at this machine', () => {
    const { WEBPAY_BASE_URL: _webpay, ...withoutWebpay } = PRODUCTION;
    expect(refusal(withoutWebpay)).toContain('WEBPAY_BASE_URL');
    const { PUBLIC_BASE_URL: _origin, ...withoutOrigin } = PRODUCTION;
    expect(refusal(withoutOrigin)).toContain('PUBLIC_BASE_URL');
    // Unset, the member's links would lead to the sandbox's stand-in pages.
    const { PRODUCT_PASSWORD_RECOVERY_URL: _recovery, ...withoutRecovery } = PRODUCTION;
    expect(refusal(withoutRecovery)).toContain('PRODUCT_PASSWORD_RECOVERY_URL');
  });

  it('names every missing or invalid variable of a production boot at once', () => {
    const { ALTCHA_HMAC_SECRET: _a, WEBPAY_API_KEY: _w, SMTP_URL: _s, OIDC_CLIENT_SECRET: _t, ...missing } = PRODUCTION;
    const message = refusal({ ...missing, PORT: 'eighty', DB_QUERY_TIMEOUT_MS: '-1', SEED_DEMO: '1' });
    for (const name of ['PORT', 'DB_QUERY_TIMEOUT_MS', 'ALTCHA_HMAC_SECRET', 'WEBPAY_API_KEY', 'SMTP_URL', 'OIDC_CLIENT_SECRET', 'SEED_DEMO']) {
      expect(message, name).toContain(`  ${name}: `);
    }
    // Each once: the checks that ran again without the malformed ones do not name them a second time.
    expect(message!.match(/ {2}PORT: /g)).toHaveLength(1);
    expect(refusal({ ...PRODUCTION, WEBPAY_COMMERCE_CODE: '', WEBPAY_API_KEY: '' })).toMatch(/WEBPAY_COMMERCE_CODE: [\s\S]*WEBPAY_API_KEY: /);
  });

  it('names a malformed variable', () => {
    expect(refusal({ NODE_ENV: 'test', SANDBOX: '1', PORT: 'abc' })).toContain('PORT');
    expect(refusal({ NODE_ENV: 'test', SANDBOX: '1', DATABASE_URL: 'mysql://x' })).toContain('DATABASE_URL');
    expect(refusal({ NODE_ENV: 'test', SANDBOX: '1', ADMIN_TOKEN: 'short' })).toContain('ADMIN_TOKEN');
    expect(refusal({ NODE_ENV: 'test', SANDBOX_CLOCK: '2026-01-01T12:00:00Z', ADMIN_TOKEN: 'x'.repeat(20) })).toContain('SANDBOX_CLOCK');
  });

  it('bounds every wait for the database and every request by default', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.databaseTimeouts).toEqual({ connectMs: 5_000, statementMs: 12_000, queryMs: 15_000, idleInTransactionMs: 30_000 });
    expect(config.requestTimeoutMs).toBe(30_000);
    const tuned = loadConfig({
      ...PRODUCTION,
      DB_CONNECT_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '2000',
      DB_QUERY_TIMEOUT_MS: '2500',
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '2500',
      WEBPAY_TIMEOUT_MS: '1500',
      REQUEST_TIMEOUT_MS: '5000',
    });
    expect(tuned.databaseTimeouts).toEqual({ connectMs: 1_000, statementMs: 2_000, queryMs: 2_500, idleInTransactionMs: 2_500 });
    expect(tuned.requestTimeoutMs).toBe(5_000);
  });

  it('refuses timeouts that would fire in the wrong order, naming the variable', () => {
    expect(refusal({ NODE_ENV: 'test', SANDBOX: '1', DB_QUERY_TIMEOUT_MS: 'abc' })).toContain('DB_QUERY_TIMEOUT_MS');
    expect(refusal({ NODE_ENV: 'test', SANDBOX: '1', DB_CONNECT_TIMEOUT_MS: '0' })).toContain('DB_CONNECT_TIMEOUT_MS');
    // The client giving up first would discard connections the server was about to free cleanly.
    expect(refusal({ NODE_ENV: 'test', SANDBOX: '1', DB_STATEMENT_TIMEOUT_MS: '15000' })).toContain('DB_STATEMENT_TIMEOUT_MS');
    // No transaction waits for Webpay (decision 044): an idle-in-transaction timeout below Webpay's is fine.
    expect(refusal({ NODE_ENV: 'test', SANDBOX: '1', DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '10000' })).toBeNull();
    // The database's own timeouts must answer first, after rolling back.
    expect(refusal({ NODE_ENV: 'test', SANDBOX: '1', REQUEST_TIMEOUT_MS: '20000' })).toContain('REQUEST_TIMEOUT_MS');
    expect(refusal({ NODE_ENV: 'test', SANDBOX: '1', REQUEST_TIMEOUT_MS: '9000', DB_CONNECT_TIMEOUT_MS: '1000', DB_STATEMENT_TIMEOUT_MS: '2000', DB_QUERY_TIMEOUT_MS: '3000' })).toContain('REQUEST_TIMEOUT_MS');
  });

  it('refuses to start without NODE_ENV, naming it, rather than run outside production’s rules', () => {
    expect(refusal({ SANDBOX: '1' })).toContain('  NODE_ENV: must be set');
    const { NODE_ENV: _n, ...unnamed } = PRODUCTION;
    expect(refusal(unnamed)).toContain('  NODE_ENV: must be set');
    expect(refusal({ ...PRODUCTION, NODE_ENV: 'prod' })).toContain('  NODE_ENV: must be production, development or test');
  });

  it.each(['597055555535', '597055555536', '597055555537', '597055555532', '597055555540', '597055555541'])(
    "refuses Transbank's public integration commerce code %s in production, naming WEBPAY_COMMERCE_CODE",
    (code) => {
      expect(refusal({ ...PRODUCTION, WEBPAY_COMMERCE_CODE: code })).toContain("  WEBPAY_COMMERCE_CODE: is one of Transbank's public integration codes");
    },
  );

  it("refuses Transbank's public integration API key in production, in either case, naming WEBPAY_API_KEY", () => {
    const key = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';
    for (const value of [key, key.toLowerCase()]) expect(refusal({ ...PRODUCTION, WEBPAY_API_KEY: value })).toContain("  WEBPAY_API_KEY: is Transbank's public integration key");
    // Outside production they are the defaults, what the simulator accepts.
    expect(loadConfig({ NODE_ENV: 'test', SANDBOX: '1' }).webpay).toMatchObject({ commerceCode: '597055555535', apiKey: key });
  });

  it.each([
    ['http://core.cooperativa.example/fineract-provider/api', 'must be an https:// URL'],
    ['https://169.254.169.254/fineract-provider/api', 'must not be a link-local address'],
    ['https://169.254.0.1:8443/fineract-provider/api', 'must not be a link-local address'],
    ['https://[fe80::1]/fineract-provider/api', 'must not be a link-local address'],
    ['https://[febf::1]/fineract-provider/api', 'must not be a link-local address'],
    ['https://[::ffff:169.254.169.254]/fineract-provider/api', 'must not be a link-local address'],
    ['https://127.0.0.1/fineract-provider/api', "must be the core banking system's host"],
  ])('refuses the core at %s in production, naming CORE_BASE_URL', (url, message) => {
    expect(refusal({ ...PRODUCTION, CORE_BASE_URL: url })).toContain(`  CORE_BASE_URL: ${message}`);
  });

  it("refuses Fineract's default user and password in production, naming each", () => {
    expect(refusal({ ...PRODUCTION, CORE_USERNAME: 'mifos' })).toContain("  CORE_USERNAME: must not be Fineract's default user");
    expect(refusal({ ...PRODUCTION, CORE_PASSWORD: 'password' })).toContain("  CORE_PASSWORD: must not be Fineract's default password");
    // A core of the cooperative's, on its own link-local-free host, is taken as given.
    expect(loadConfig({ ...PRODUCTION, CORE_BASE_URL: 'https://10.20.0.5:8443/fineract-provider/api' }).core.baseUrl).toBe('https://10.20.0.5:8443/fineract-provider/api');
  });

  describe('the core’s host name, resolved at boot in production', () => {
    const config = loadConfig(PRODUCTION);
    const resolvingTo =
      (...addresses: string[]): HostLookup =>
      async () =>
        addresses.map((address) => ({ address }));
    const refusedWith = async (lookup: HostLookup, target = config) => {
      try {
        await checkProductionHosts(target, lookup);
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
        throw error;
      }
      return null;
    };

    it.each([['127.0.0.1'], ['::1'], ['169.254.169.254'], ['fe80::1'], ['10.1.2.3', '127.0.1.1'], ['::ffff:127.0.0.1']])(
      'refuses a name that resolves to %s, naming CORE_BASE_URL',
      async (...addresses) => {
        expect(await refusedWith(resolvingTo(...addresses))).toMatch(/ {2}CORE_BASE_URL: its host core\.cooperativa\.example resolves to .*must not be this machine or a link-local address/);
      },
    );

    it('accepts a name that resolves to other addresses only, and refuses one that does not resolve', async () => {
      const asked: string[] = [];
      expect(await refusedWith(async (hostname) => (asked.push(hostname), [{ address: '10.1.2.3' }, { address: '2001:db8::7' }]))).toBeNull();
      expect(asked).toEqual(['core.cooperativa.example']);
      const nowhere: HostLookup = async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND core.cooperativa.example'), { code: 'ENOTFOUND' });
      };
      expect(await refusedWith(nowhere)).toContain('  CORE_BASE_URL: its host core.cooperativa.example does not resolve (ENOTFOUND)');
    });

    it('asks nothing of an address literal or outside production', async () => {
      const never: HostLookup = async () => {
        throw new Error('looked up');
      };
      expect(await refusedWith(never, loadConfig({ ...PRODUCTION, CORE_BASE_URL: 'https://10.20.0.5/fineract-provider/api' }))).toBeNull();
      expect(await refusedWith(never, loadConfig({ NODE_ENV: 'test', SANDBOX: '1' }))).toBeNull();
    });
  });

  it('refuses in production an ALTCHA_HMAC_SECRET that was typed rather than generated, naming it', () => {
    for (const secret of ['a'.repeat(32), 'changeme'.repeat(4), '0123456789abcdef'.repeat(2), 'abcdefgh'.repeat(5)]) {
      expect(isWeakSecret(secret), secret).toBe(true);
      expect(refusal({ ...PRODUCTION, ALTCHA_HMAC_SECRET: secret }), secret).toContain('  ALTCHA_HMAC_SECRET: must be generated, not typed');
    }
    // Generated keys pass: hex (openssl rand -hex 16 and 32) and base64.
    for (const secret of ['3f9a0c6e1b7d2a8f4c5e9b0d6a1f7c3e', 'c0ffee15deadbeef0123456789abcdef0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'q8Zr1+Vx0kP3mW7yT2nB5cL9dH4fJ6sA']) {
      expect(isWeakSecret(secret), secret).toBe(false);
    }
    // Below 32 characters it is refused everywhere.
    expect(refusal({ NODE_ENV: 'test', ALTCHA_HMAC_SECRET: '3f9a0c6e1b7d2a8f' })).toContain('  ALTCHA_HMAC_SECRET: must be at least 32 characters');
  });

  it('refuses in production an OIDC_CLIENT_SECRET shorter than 32 characters, naming it', () => {
    expect(refusal({ ...PRODUCTION, OIDC_CLIENT_SECRET: 'x1'.repeat(15) + 'y' })).toContain('  OIDC_CLIENT_SECRET: must be at least 32 characters in production');
    expect(loadConfig({ NODE_ENV: 'development', OIDC_ISSUER: 'http://login.test', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 'sixteen-chars-ok' }).operatorConsole.provider).toMatchObject({ clientSecret: 'sixteen-chars-ok' });
  });

  it('refuses OIDC_REQUIRE_MFA=0 in production, naming it, and allows it elsewhere', () => {
    expect(refusal({ ...PRODUCTION, OIDC_REQUIRE_MFA: '0' })).toContain('  OIDC_REQUIRE_MFA: must not be 0 in production');
    expect(loadConfig({ ...PRODUCTION, OIDC_REQUIRE_MFA: '1' }).operatorConsole.requireMfa).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', SANDBOX: '1', OIDC_REQUIRE_MFA: '0' }).operatorConsole.requireMfa).toBe(false);
  });

  it.each(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0', '::ffff:0.0.0.0', '0', '0x0'])('refuses ADMIN_HOST=%s (every interface) in production, naming it', (host) => {
    expect(refusal({ ...PRODUCTION, ADMIN_HOST: host })).toContain('  ADMIN_HOST: must be one address in production');
  });

  it.each(['0.0.0.0/0', '::/0', '10.0.0.1, ::/0', '192.0.2.0/24,0.0.0.0/00'])('refuses TRUST_PROXY=%s (every address) in production, naming it', (value) => {
    expect(refusal({ ...PRODUCTION, TRUST_PROXY: value })).toContain('  TRUST_PROXY: must name the load balancer');
    expect(loadConfig({ ...PRODUCTION, TRUST_PROXY: '10.0.0.0/8, 2001:db8::/32' }).trustProxy).toEqual(['10.0.0.0/8', '2001:db8::/32']);
  });

  it('refuses in production an SMTP_URL that may carry mail in plain text, naming it', () => {
    for (const url of ['smtp://mail.cooperativa.example:587', 'smtp://mail.cooperativa.example:25?requireTLS=false', 'smtps://mail.cooperativa.example?tls.rejectUnauthorized=false']) {
      expect(refusal({ ...PRODUCTION, SMTP_URL: url }), url).toContain('  SMTP_URL: must ');
    }
    for (const url of ['smtps://user:pass@mail.cooperativa.example:465', 'smtp://user:pass@mail.cooperativa.example:587?requireTLS=true']) {
      expect(loadConfig({ ...PRODUCTION, SMTP_URL: url }).smtpUrl).toBe(url);
    }
  });

  it('refuses an AUTHORISER_WEBHOOK_URL over plain http in production, naming it', () => {
    const secret = { AUTHORISER_WEBHOOK_SECRET: '7d1e9a4c2b8f0e6d3a5c1b9f7e2d4a6c' };
    expect(refusal({ ...PRODUCTION, ...secret, AUTHORISER_WEBHOOK_URL: 'http://app.cooperativa.example/push' })).toContain('  AUTHORISER_WEBHOOK_URL: must be an https:// URL in production');
    expect(loadConfig({ ...PRODUCTION, ...secret, AUTHORISER_WEBHOOK_URL: 'https://app.cooperativa.example/push' }).authoriser.webhook?.url).toBe('https://app.cooperativa.example/push');
  });

  it('refuses production without DATABASE_URL (PGlite), naming it', () => {
    const { DATABASE_URL: _d, ...embedded } = PRODUCTION;
    expect(refusal(embedded)).toContain('  DATABASE_URL: is required in production');
    expect(loadConfig({ NODE_ENV: 'development', SANDBOX: '1' }).databaseUrl).toBeUndefined();
  });
});
