import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { CustomFetch } from 'openid-client';
import { REQUEST_ID_HEADER } from '@frontdoor/contract';
import { currentRequestId } from '../services/logger.ts';

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * The most an upstream's answer may hold: discovery, tokens, user info and realm answers are a few
 * kB, and each is read whole into memory (a 300 MB answer took the process from 188 MB to 1.3 GB).
 */
export const UPSTREAM_MAX_BYTES = 1024 * 1024;

const tooLarge = (url: string) =>
  new Error(`the answer of ${new URL(url).origin} is over ${UPSTREAM_MAX_BYTES} bytes`);

/** fetch, with the answer's body cut off (an error to whoever reads it) past UPSTREAM_MAX_BYTES. */
async function limitedFetch(url: string, init: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  if (!res.body) return res;
  if (Number(res.headers.get('content-length')) > UPSTREAM_MAX_BYTES) {
    await res.body.cancel();
    throw tooLarge(url);
  }
  let bytes = 0;
  const body = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        if (bytes > UPSTREAM_MAX_BYTES) controller.error(tooLarge(url));
        else controller.enqueue(chunk);
      },
    }),
  );
  const limited = new Response(body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
  // what the library may check of the answer besides its body
  Object.defineProperty(limited, 'url', { value: res.url });
  return limited;
}

/** Set while the server asks itself (inProcessFetch): no client's request can be answered within it. */
const selfFetches = new AsyncLocalStorage<true>();

/**
 * Whether the request being handled is one the server sent itself (its callback's code exchange, the
 * discovery before it), not a client's: no proxy stood in front of it to name a client.
 */
export const isSelfFetch = (): boolean => selfFetches.getStore() === true;

/**
 * A fetch for openid-client that serves requests to the portal's own origin in process
 * (fastify.inject): the API's callback exchanging codes with its own authorization server,
 * and federation with the dev identity provider, work even where the server cannot reach its
 * public URL (TLS offload, containers). Other origins go to the network, their answers held to
 * UPSTREAM_MAX_BYTES.
 */
export function inProcessFetch(app: FastifyInstance, publicUrl: string): CustomFetch {
  const origin = new URL(publicUrl).origin;
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== origin) return limitedFetch(url, options as RequestInit);
    const body = options.body;
    // the request asking (api/auth/callback) gives its id: the token endpoint's line is found beside its own
    const requestId = currentRequestId();
    const request: InjectOptions = {
      method: options.method as 'GET' | 'POST',
      url: target.pathname + target.search,
      headers: {
        ...options.headers,
        host: target.host,
        ...(requestId === undefined ? {} : { [REQUEST_ID_HEADER]: requestId }),
      },
      payload:
        typeof body === 'string' ? body : body instanceof URLSearchParams ? body.toString() : undefined,
    };
    // with a callback inject sends at once, within selfFetches (its promise would send only when awaited, outside)
    const res = await new Promise<LightMyRequestResponse>((resolve, reject) =>
      selfFetches.run(true, () =>
        app.inject(request, (error, response) => (response ? resolve(response) : reject(error))),
      ),
    );
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
