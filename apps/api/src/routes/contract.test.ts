import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app';

// Documents of their own rather than answers of a call: the OpenAPI document itself and Prometheus' text.
const DOCUMENTS = ['GET /docs', 'GET /docs/openapi.json', 'GET /metrics'];

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** Every route the instance serves, as 'METHOD /path/{param}' (HEAD routes are GET's own), from its route tree. */
function servedRoutes(app: TestApp['app']): string[] {
  const prefixes: string[] = [];
  return app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .flatMap((line) => {
      const match = /^([│ ]*)[├└]── (\/\S*) \(([A-Z, ]+)\)/.exec(line);
      if (!match) return [];
      const depth = match[1]!.length / 4;
      prefixes[depth] = `${prefixes[depth - 1] ?? ''}${match[2]!}`;
      const path = prefixes[depth]!.replace(/:(\w+)/g, '{$1}');
      return match[3]!.split(', ').filter((method) => method !== 'HEAD').map((method) => `${method} ${path}`);
    });
}

const schemaOf = (operation: Operation, status: string) => Object.values(operation.responses?.[status]?.content ?? {})[0]?.schema;

describe('one contract for every answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The sandbox's routes too; no web build, whose files are not calls.
    t = await startTestApp('pglite', { config: { webDist: undefined } });
  });
  afterAll(() => t.close());

  it('documents every route but the documents, each with its answer and the error envelope for 4xx and 5xx', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs' })).json() as { paths: Record<string, Record<string, Operation>> };
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
    );
    expect(documented.map((d) => d.route).sort()).toEqual(servedRoutes(t.app).filter((route) => !DOCUMENTS.includes(route)).sort());

    for (const { route, operation } of documented) {
      const success = Object.keys(operation.responses ?? {}).filter((status) => /^[23]\d\d$/.test(status));
      expect(success, route).not.toEqual([]);
      for (const status of success) expect(schemaOf(operation, status), `${route} ${status}`).toBeDefined();
      for (const status of ['4XX', '5XX']) {
        // The envelope: { <responseName>: { error: { errores: { detalleError: { codigo, descripcion } } } } }.
        const envelope = JSON.stringify(schemaOf(operation, status));
        expect(envelope, `${route} ${status}`).toContain('"detalleError"');
        expect(envelope, `${route} ${status}`).toContain('"codigo"');
      }
    }
  });

  it('answers /health and /ready through their schemas', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    // Without REDIS_URL the limits are counted in the process.
    expect(ready.json()).toEqual({ status: 'ready', rateLimits: 'process' });
  });

  it('documents each call of the member with the domain’s answer, not an empty schema', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs' })).json() as { paths: Record<string, Record<string, Operation>> };
    const answer = (path: string) => JSON.stringify(schemaOf(doc.paths[path]!['post']!, '200'));
    expect(answer('/prod/parametro/consultar')).toContain('"listaParametros"');
    expect(answer('/prod/producto/listar')).toContain('"listaDetalleProductos"');
    expect(answer('/prod/producto/seleccionar')).toContain('"montoTotal"');
    expect(answer('/prod/pago/producto/cuentavista/autentica')).toContain('"factores"');
    expect(answer('/prod/pago/producto/cuentavista/autorizar')).toContain('"vigencia"');
    expect(answer('/prod/pago/producto/cuentavista/pagar')).toContain('"productoPagadoCV"');
    expect(answer('/prod/pago/consultar')).toContain('"listaPago"');
    expect(answer('/prod/notificaciones/enviar')).toContain('"descripcion"');
    expect(answer('/prod/auditoria/guardarlog')).toContain('"codigo"');
    expect(answer('/api/pagoexpress/auth')).toContain('"token"');
    expect(answer('/api/pagoexpress/initMall')).toContain('"url"');
  });
});
