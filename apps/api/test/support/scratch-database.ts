import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  name: string;
  /** Drops the database, closing whatever connections are left on it. */
  remove(): Promise<void>;
}

/**
 * A fresh database on the PostgreSQL server of `baseUrl`, so that no test sees another's rows: empty, or a copy of
 * `template` (a database nobody is connected to).
 */
export async function createPostgresDatabase(baseUrl: string, prefix = 'pago_test', template?: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(baseUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    remove: () => onServer(baseUrl, `drop database if exists ${name} with (force)`),
  };
}

async function onServer(baseUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
