import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document of every call, generated from the same zod schemas the routes validate with. Registered
 * before the routes so that it sees them all; served as JSON at /docs (serveOpenApi).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Pago Online',
        version: '1.0.0',
        description:
          'Calls of the member screens (spec §7), the payment host, the voucher and the admin API. Business errors answer ' +
          'HTTP 200 with {"<responseName>": {"error": {"errores": {"detalleError": {"codigo", "descripcion"}}}}}; a body ' +
          'that fails its schema answers 400 with the same envelope. docs/errors.md lists every code.',
      },
      components: { securitySchemes: { adminToken: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    hideUntagged: false,
  });
}

/** /docs: one document of the calls of every instance given (the member's, and the operator's when it has its own). */
export function serveOpenApi(on: FastifyInstance, instances: FastifyInstance[]): void {
  const document = () => {
    const [first, ...rest] = instances.map((instance) => instance.swagger());
    return { ...first, paths: Object.assign({}, first!.paths, ...rest.map((d) => d.paths)) };
  };
  on.get('/docs', { schema: { hide: true } }, async () => document());
  on.get('/docs/openapi.json', { schema: { hide: true } }, async () => document());
}
