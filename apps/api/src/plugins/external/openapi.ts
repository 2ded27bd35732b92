import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document of every call, generated from the same zod schemas the routes validate with. Registered
 * before the routes so that it sees them all; served as JSON at /docs.
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
  app.get('/docs', { schema: { hide: true } }, async () => app.swagger());
  app.get('/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
