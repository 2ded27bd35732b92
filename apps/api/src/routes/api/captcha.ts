import { captchaChallengeSchema } from '@pago/domain/schemas/answers';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../responses';

export const CAPTCHA_CHALLENGE_PATH = '/api/captcha/challenge';

/** Issues ALTCHA proof-of-work challenges for the invisible captcha of the product list and the login. */
export async function captchaRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    CAPTCHA_CHALLENGE_PATH,
    {
      schema: { response: { 200: captchaChallengeSchema, ...errorResponses('captchaResponse') } },
      preHandler: app.rateLimit({ max: app.config.rateLimits.captchaPerIp, timeWindow: 60_000, keyGenerator: (request) => `captcha:${request.client}` }),
      config: { responseName: 'captchaResponse' },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // A client spraying wrong passwords over many RUTs pays more work for each call it makes.
      return app.services.captcha.challenge({ costly: await app.services.ownAccount.isSpraying(request.client) });
    },
  );
}
