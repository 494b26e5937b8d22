import type { FastifyInstance } from 'fastify';
import { PRODUCT_JWKS_MAX_AGE_SECONDS, PRODUCT_JWKS_PATH } from '@frontdoor/contract';
import type { AppContext } from '../context.ts';
import { productJwks } from '../services/product-keys.ts';

/**
 * The public keys of the product token (auth/sig), beside PUBLIC_URL so a product finds them from
 * the token's `iss`; distinct from the authorization server's own JWKS under /oidc.
 */
export const productKeyRoutes =
  (ctx: AppContext) =>
  async (app: FastifyInstance): Promise<void> => {
    app.get(PRODUCT_JWKS_PATH, { config: { sharedCache: true } }, async (_request, reply) => {
      // minutes: a new key is published PRODUCT_KEY_PUBLISH_AHEAD_MS (longer) before it signs
      reply.header('cache-control', `public, max-age=${PRODUCT_JWKS_MAX_AGE_SECONDS}`);
      return productJwks(ctx);
    });
  };
