// Operator's command line over the admin API: `npm run admin -- params list | params set NAME VALUE`.
import { readFile, writeFile } from 'node:fs/promises';
import { reconciliationCsv, type CoreReconciliation } from '../services/core-reconciliation-service';
import { SANDBOX_ADMIN_TOKEN } from '../config';
import { openDatabase, type Db } from '../db/client';
import { issueMachineToken, TOKEN_NAME } from '../operator/machine-tokens';
import { isPermission, isRole, PERMISSIONS, ROLES } from '../operator/roles';
import { appendAudit } from '../repositories/audit-repository';
import { endSessionsOf, setAssignedRoles } from '../repositories/operator-repository';
import { readLoadWithCut } from './import-file';

const USAGE = `usage:
  npm run admin -- params list
  npm run admin -- params set NAME VALUE
  npm run admin -- members unblock-password RUT
  npm run admin -- members unblock-card RUT
  npm run admin -- authoriser code RUT
  npm run admin -- authoriser devices RUT
  npm run admin -- authoriser revoke DEVICE_ID
  npm run admin -- tx show ID_TRANSACCION
  npm run admin -- audit [KIND]
  npm run admin -- reconcile core YYYYMMDD [FILE.csv]   (our operations against the core's books; CSV to FILE or stdout)
  npm run admin -- import FILE.json|FILE.csv [--corte ISO_INSTANT]   (when the core took the extract; a JSON extract may carry it)
  npm run admin -- tokens list
  npm run admin -- tokens issue NAME SCOPE[,SCOPE...] [--database]   (scopes: ${PERMISSIONS.join(', ')})
  npm run admin -- tokens revoke TOKEN_ID
  npm run admin -- operators roles SUBJECT ROLE[,ROLE...] --database   (roles: ${ROLES.join(', ')})

environment: API_URL (default http://localhost:3000), MACHINE_TOKEN (a token issued with 'tokens issue'), else
ADMIN_TOKEN (the bootstrap token, sandbox and development only; default: the sandbox's).
'tokens issue … --database' writes the token straight into DATABASE_URL's database, without the API or a token:
how production issues its first one (production refuses ADMIN_TOKEN). 'operators roles … --database' gives the first
administrators their roles when the identity provider carries none (later changes take two administrators).`;

async function call(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const base = (process.env.API_URL ?? 'http://localhost:3000').replace(/\/$/, '');
  const token = process.env.MACHINE_TOKEN ?? process.env.ADMIN_TOKEN ?? SANDBOX_ADMIN_TOKEN;
  const response = await fetch(`${base}/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const envelope = Object.values((payload ?? {}) as Record<string, { error?: { errores?: { detalleError?: { descripcion?: string } } } }>)[0];
    const detail = envelope?.error?.errores?.detalleError?.descripcion;
    throw new Error(`${response.status}: ${detail ?? 'error'}`);
  }
  return payload;
}

/** How the audit trail names what the CLI writes straight into the database. */
const CLI_DATABASE = 'línea de comandos (base de datos)';

/** Runs `work` on DATABASE_URL's database (the commands with --database), closing it after. */
async function inDatabase(work: (db: Db) => Promise<number>): Promise<number> {
  if (!process.env.DATABASE_URL) {
    console.error('--database needs DATABASE_URL');
    return 2;
  }
  const database = await openDatabase({ url: process.env.DATABASE_URL, poolMax: 1 });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv;
  if (group === 'params' && action === 'list' && rest.length === 0) {
    const body = (await call('GET', '/parametros')) as { parametrosResponse: { parametros: { nombre: string; valor: string }[] } };
    for (const p of body.parametrosResponse.parametros) console.log(`${p.nombre}=${p.valor}`);
    return 0;
  }
  if (group === 'params' && action === 'set' && rest.length === 2) {
    const [nombre, valor] = rest as [string, string];
    const body = (await call('PUT', `/parametros/${encodeURIComponent(nombre)}`, { valor })) as {
      parametrosResponse: { nombre: string; valor: string; anterior: string } | { cambio: { id: string; vence: string } };
    };
    const r = body.parametrosResponse;
    // A change that stops payments or moves money waits for an operator's approval in the console (four eyes).
    if ('cambio' in r) console.log(`${nombre}=${valor}: proposed (change ${r.cambio.id}); applies once an operator approves it in the console, before ${r.cambio.vence}`);
    else console.log(`${r.nombre}: ${r.anterior} -> ${r.valor}`);
    return 0;
  }
  if (group === 'tokens' && action === 'list' && rest.length === 0) {
    const body = (await call('GET', '/tokens')) as { consolaResponse: { tokens: unknown[] } };
    for (const t of body.consolaResponse.tokens) console.log(JSON.stringify(t));
    return 0;
  }
  if (group === 'tokens' && action === 'issue' && rest.length === 3 && rest[2] === '--database') {
    const [nombre, list] = rest as [string, string];
    const alcances = list.split(',');
    if (!TOKEN_NAME.test(nombre) || !alcances.every(isPermission)) {
      console.error(`a name of lower case letters, digits, '.', '-' (2 to 48), and scopes among: ${PERMISSIONS.join(', ')}`);
      return 2;
    }
    // Whoever holds DATABASE_URL holds every row already: writing the token there grants nothing new.
    return inDatabase(async (db) => {
      const issued = await issueMachineToken(db, { nombre, alcances: alcances.filter(isPermission), by: CLI_DATABASE, issuerSubject: null, approved: true });
      if (!issued) {
        console.error(`a token named ${nombre} exists`);
        return 1;
      }
      console.log(`${nombre} (${issued.row.id}): ${issued.secreto}`);
      return 0;
    });
  }
  if (group === 'operators' && action === 'roles' && rest.length === 3 && rest[2] === '--database') {
    // The first administrators of a provider that carries no roles: nobody holds operadores.roles to approve them yet.
    const [subject, list] = rest as [string, string];
    const roles = list.split(',');
    if (!subject || subject.length > 255 || !roles.every(isRole)) {
      console.error(`a subject (the provider's sub) and roles among: ${ROLES.join(', ')}`);
      return 2;
    }
    return inDatabase(async (db) => {
      await db.transaction(async (tx) => {
        await setAssignedRoles(tx, subject, roles.filter(isRole), CLI_DATABASE);
        await endSessionsOf(tx, subject);
        await appendAudit(tx, { kind: 'operador.roles', detail: { sujeto: subject, roles, operador: CLI_DATABASE } });
      });
      console.log(`${subject}: ${roles.join(', ')}`);
      return 0;
    });
  }
  if (group === 'tokens' && action === 'issue' && rest.length === 2) {
    const body = (await call('POST', '/tokens', { nombre: rest[0], alcances: rest[1]!.split(',') })) as { consolaResponse: { token: { id: string }; secreto: string } };
    // The secret is shown this once: the server keeps only its hash.
    console.log(`${rest[0]} (${body.consolaResponse.token.id}): ${body.consolaResponse.secreto}`);
    return 0;
  }
  if (group === 'tokens' && action === 'revoke' && rest.length === 1) {
    await call('POST', `/tokens/${encodeURIComponent(rest[0]!)}/revocar`);
    console.log(`${rest[0]}: revoked`);
    return 0;
  }
  if (group === 'members' && (action === 'unblock-password' || action === 'unblock-card') && rest.length === 1) {
    const what = action === 'unblock-password' ? 'desbloquear-clave' : 'desbloquear-tarjeta';
    await call('POST', `/socios/${encodeURIComponent(rest[0]!)}/${what}`);
    console.log(`${rest[0]}: ${action === 'unblock-password' ? 'password' : 'coordinate card'} unblocked`);
    return 0;
  }
  if (group === 'authoriser' && action === 'code' && rest.length === 1) {
    const body = (await call('POST', `/socios/${encodeURIComponent(rest[0]!)}/autorizador/codigo`)) as {
      operacionesResponse: { codigo: string; vigenciaDias: number } | { cambio: { id: string; vence: string } };
    };
    const r = body.operacionesResponse;
    // Outside the sandbox the code is proposed: a second operator approves it and it goes to the member's e-mail.
    if ('cambio' in r) console.log(`proposed (change ${r.cambio.id}); e-mailed to the member once an operator approves it in the console, before ${r.cambio.vence}`);
    else console.log(`${r.codigo} (valid ${r.vigenciaDias} days, once)`);
    return 0;
  }
  if (group === 'authoriser' && action === 'devices' && rest.length === 1) {
    const body = (await call('GET', `/socios/${encodeURIComponent(rest[0]!)}/autorizador/dispositivos`)) as { operacionesResponse: { dispositivos: unknown[] } };
    for (const d of body.operacionesResponse.dispositivos) console.log(JSON.stringify(d));
    return 0;
  }
  if (group === 'authoriser' && action === 'revoke' && rest.length === 1) {
    await call('POST', `/autorizador/dispositivos/${encodeURIComponent(rest[0]!)}/revocar`);
    console.log(`${rest[0]}: revoked`);
    return 0;
  }
  if (group === 'import' && action && (rest.length === 0 || (rest.length === 2 && rest[0] === '--corte'))) {
    const load = readLoadWithCut(action, await readFile(action, 'utf8'));
    const corte = rest[1] ?? load.corte;
    if (!corte) {
      console.error('the load needs --corte: when the core took the extract (what was paid here after it is kept)');
      return 2;
    }
    const rows = load.socios;
    let aceptados = 0;
    const rechazados: unknown[] = [];
    // Sent in batches: a night's load can be large, each call stays small.
    for (let i = 0; i < rows.length; i += 1_000) {
      const body = (await call('POST', '/importacion', { corte, socios: rows.slice(i, i + 1_000) })) as {
        operacionesResponse: { aceptados: number; rechazados: { fila: number }[] };
      };
      aceptados += body.operacionesResponse.aceptados;
      rechazados.push(...body.operacionesResponse.rechazados.map((r) => ({ ...r, fila: r.fila + i })));
    }
    console.log(JSON.stringify({ recibidos: rows.length, aceptados, rechazados }, null, 2));
    return rechazados.length === 0 ? 0 : 3;
  }
  if (group === 'reconcile' && action === 'core' && (rest.length === 1 || rest.length === 2)) {
    const body = (await call('GET', `/conciliacion/core?fecha=${encodeURIComponent(rest[0]!)}`)) as { operacionesResponse: CoreReconciliation };
    const csv = reconciliationCsv(body.operacionesResponse);
    if (rest[1]) {
      await writeFile(rest[1], csv);
      console.log(`${rest[1]}: ${body.operacionesResponse.conciliadas} conciliadas, ${body.operacionesResponse.diferencias} diferencias`);
    } else process.stdout.write(csv);
    return body.operacionesResponse.diferencias === 0 ? 0 : 3;
  }
  if (group === 'audit' && rest.length === 0) {
    const query = action ? `?kind=${encodeURIComponent(action)}` : '';
    const body = (await call('GET', `/auditoria${query}`)) as { operacionesResponse: { eventos: unknown[] } };
    for (const e of body.operacionesResponse.eventos) console.log(JSON.stringify(e));
    return 0;
  }
  if (group === 'tx' && action === 'show' && rest.length === 1) {
    const body = (await call('GET', `/transacciones/${encodeURIComponent(rest[0]!)}`)) as { operacionesResponse: unknown };
    console.log(JSON.stringify(body.operacionesResponse, null, 2));
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
