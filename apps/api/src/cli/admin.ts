// Operator's command line over the admin API: `npm run admin -- params list | params set NAME VALUE`.
import { SANDBOX_ADMIN_TOKEN } from '../config';

const USAGE = `usage:
  npm run admin -- params list
  npm run admin -- params set NAME VALUE

environment: API_URL (default http://localhost:3000), ADMIN_TOKEN (default: the sandbox token)`;

async function call(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<unknown> {
  const base = (process.env.API_URL ?? 'http://localhost:3000').replace(/\/$/, '');
  const token = process.env.ADMIN_TOKEN ?? SANDBOX_ADMIN_TOKEN;
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
    const detail = (payload as { parametrosResponse?: { error?: { errores?: { detalleError?: { descripcion?: string } } } } })
      ?.parametrosResponse?.error?.errores?.detalleError?.descripcion;
    throw new Error(`${response.status}: ${detail ?? 'error'}`);
  }
  return payload;
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
      parametrosResponse: { nombre: string; valor: string; anterior: string };
    };
    const r = body.parametrosResponse;
    console.log(`${r.nombre}: ${r.anterior} -> ${r.valor}`);
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
