import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../test/fake-http.ts';
import { UPSTREAM_MAX_BYTES, inProcessFetch } from './self-fetch.ts';

describe('inProcessFetch towards an upstream', () => {
  let upstream: FakeServer;
  const fetchUpstream = inProcessFetch(Fastify(), 'https://portal.example');
  beforeAll(async () => {
    upstream = await startFakeServer((req, _body, res) => {
      res.setHeader('content-type', 'application/json');
      // no kept-alive connection to wait for when the server closes
      res.setHeader('connection', 'close');
      const huge = JSON.stringify({ padding: 'x'.repeat(2 * UPSTREAM_MAX_BYTES) });
      if (req.url === '/declared') return res.end(huge);
      if (req.url === '/streamed') {
        // chunked, no content-length: only counting what arrives finds it out
        res.write(huge.slice(0, UPSTREAM_MAX_BYTES));
        return res.end(huge.slice(UPSTREAM_MAX_BYTES));
      }
      res.end(JSON.stringify({ issuer: 'https://idp.example' }));
    });
  });
  afterAll(async () => upstream.close());

  const get = (path: string) =>
    fetchUpstream(`${upstream.url}${path}`, {
      method: 'GET',
      headers: {},
      body: undefined,
      redirect: 'manual',
    });

  it('passes an ordinary answer on as it came', async () => {
    const res = await get('/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.url).toBe(`${upstream.url}/.well-known/openid-configuration`);
    expect(await res.json()).toEqual({ issuer: 'https://idp.example' });
  });

  it('refuses an answer over UPSTREAM_MAX_BYTES, declared or streamed, instead of reading it into memory', async () => {
    await expect(get('/declared')).rejects.toThrow(`is over ${UPSTREAM_MAX_BYTES} bytes`);
    const streamed = await get('/streamed');
    await expect(streamed.text()).rejects.toThrow(`is over ${UPSTREAM_MAX_BYTES} bytes`);
  });
});
