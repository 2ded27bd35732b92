import pino from 'pino';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { loggerOptions } from './logging';
import { clockFromConfig } from './clock';
import { checkProductionHosts, ConfigError, loadConfig, SANDBOX_ADMIN_TOKEN } from './config';
import { auditTrailChangeable, openDatabase } from './db/client';
import { seedDemoMembers, seedParameters } from './db/seed';

// A web build (apps/web/dist, apps/console/dist) whether this runs from src/ (tsx) or from the bundle in dist/.
function defaultDist(app: 'web' | 'console'): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'apps', app, 'dist');
    if (existsSync(candidate)) return candidate;
    const sibling = join(dir, app, 'dist');
    if (existsSync(sibling)) return sibling;
    dir = dirname(dir);
  }
  return undefined;
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    await checkProductionHosts(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = pino(loggerOptions(config.logLevel));
  const webDist = config.webDist ? resolve(config.webDist) : defaultDist('web');
  const consoleDist = config.consoleDist ? resolve(config.consoleDist) : defaultDist('console');

  const clock = clockFromConfig(config);
  const database = await openDatabase({ url: config.databaseUrl, ownerUrl: config.databaseOwnerUrl, pgliteDir: config.pgliteDir, timeouts: config.databaseTimeouts });
  await database.migrate();
  if (config.nodeEnv === 'production' && (await auditTrailChangeable(database.db))) {
    console.error('DATABASE_URL: its role can change or empty the audit trail (audit_log). Give the API a role of its own and migrate as the owner with DATABASE_OWNER_URL (docs/OPERATIONS.md, decision 042).');
    await database.close();
    process.exit(1);
  }
  await seedParameters(database.db);
  if (config.seedDemo) {
    const created = await seedDemoMembers(database.db, clock());
    logger.info({ created }, 'demo members seeded');
  }

  const app = await buildApp({
    config: { ...config, webDist, consoleDist },
    database,
    clock,
    logger: loggerOptions(config.logLevel),
  });
  if (config.adminToken === SANDBOX_ADMIN_TOKEN) {
    logger.warn('ADMIN_TOKEN is not set: the sandbox admin token is in use (sandbox only)');
  }

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  // Reconciliation, core postings, webhook deliveries and pruning, on every replica (scheduler.ts).
  app.scheduler.start();

  const address = await app.listen({ host: config.host, port: config.port });
  const operator = config.operatorListener ? await app.operator.listen(config.operatorListener) : address;
  logger.info({ address, operator, database: database.kind, sandbox: config.sandbox, node: process.version }, 'Pago Online listening');
}

main().catch((error: unknown) => {
  console.error('boot failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
