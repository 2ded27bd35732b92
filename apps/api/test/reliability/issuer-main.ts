// Test harness only: the sandbox's identity provider as a process of its own over TLS (separate-issuer.ts starts it),
// so the production-mode test signs in at an issuer that is not embedded in the API.
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { readFileSync } from 'node:fs';
import { createSandboxProvider, sandboxProviderRoutes } from '../../src/operator/sandbox-provider';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const provider = createSandboxProvider({
  issuer: env('ISSUER'),
  clientSecret: env('ISSUER_CLIENT_SECRET'),
  redirectUri: env('ISSUER_REDIRECT_URI'),
  postLogoutRedirectUri: env('ISSUER_REDIRECT_URI'),
});
const app = Fastify({ https: { key: readFileSync(env('ISSUER_KEY_FILE')), cert: readFileSync(env('ISSUER_CERT_FILE')) } });
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
await (app as unknown as FastifyInstance).register(sandboxProviderRoutes, { provider });
await app.listen({ host: '127.0.0.1', port: Number(env('ISSUER_PORT')) });
console.log('issuer listening');
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
