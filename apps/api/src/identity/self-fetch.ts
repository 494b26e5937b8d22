import type { FastifyInstance } from 'fastify';
import type { CustomFetch } from 'openid-client';

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A fetch for openid-client that serves requests to the portal's own origin in process
 * (fastify.inject): the API's callback exchanging codes with its own authorization server,
 * and federation with the dev identity provider, work even where the server cannot reach its
 * public URL (TLS offload, containers). Other origins go to the network.
 */
export function inProcessFetch(app: FastifyInstance, publicUrl: string): CustomFetch {
  const origin = new URL(publicUrl).origin;
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== origin) return fetch(url, options as RequestInit);
    const body = options.body;
    const res = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: target.pathname + target.search,
      headers: { ...options.headers, host: target.host },
      payload:
        typeof body === 'string' ? body : body instanceof URLSearchParams ? body.toString() : undefined,
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, String(v));
    }
    return new Response(NULL_BODY_STATUSES.has(res.statusCode) ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers: responseHeaders,
    });
  };
}
