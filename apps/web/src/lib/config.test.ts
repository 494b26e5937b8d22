import { describe, expect, it } from 'vitest';
import { CONFIG_ELEMENT_ID, CONFIG_PATH } from '@frontdoor/contract';
import { ConfigError, loadConfig } from './config.tsx';
import { HttpResponse, http, server } from '../test/server.ts';
import { testConfig } from '../test/config.ts';

const configUrl = new URL(CONFIG_PATH, window.location.origin).href;

describe('loadConfig (§3, issue 2 §2)', () => {
  it('fetches /assets/cfg/config.json (not under apiUrl) and returns the validated config', async () => {
    let requested = '';
    server.use(
      http.get(configUrl, ({ request }) => {
        requested = request.url;
        return HttpResponse.json(testConfig);
      }),
    );
    await expect(loadConfig()).resolves.toEqual(testConfig);
    expect(new URL(requested).pathname).toBe('/assets/cfg/config.json');
    expect(requested.startsWith(testConfig.apiUrl)).toBe(false);
  });

  it('reads the config the server put into the page, without fetching config.json', async () => {
    let fetched = false;
    server.use(
      http.get(configUrl, () => {
        fetched = true;
        return HttpResponse.json({});
      }),
    );
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = CONFIG_ELEMENT_ID;
    block.textContent = JSON.stringify({ ...testConfig, providerName: 'Inline </b>' });
    document.head.append(block);
    try {
      await expect(loadConfig()).resolves.toEqual({ ...testConfig, providerName: 'Inline </b>' });
      expect(fetched).toBe(false);
      block.textContent = '{"env": 1}';
      await expect(loadConfig()).rejects.toThrow('The configuration file is malformed.');
    } finally {
      block.remove();
    }
  });

  it('a missing file is a ConfigError saying it could not be loaded', async () => {
    server.use(http.get(configUrl, () => new HttpResponse(null, { status: 404 })));
    const error = await loadConfig().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe('The configuration file could not be loaded.');
    expect((error as ConfigError).detail).toContain('404');
  });

  it('a file that is not JSON is a ConfigError saying it is malformed', async () => {
    server.use(http.get(configUrl, () => HttpResponse.text('<html>')));
    await expect(loadConfig()).rejects.toThrow('The configuration file is malformed.');
  });

  it('a file missing fields is a ConfigError naming them', async () => {
    const { apiUrl: _apiUrl, ...incomplete } = testConfig;
    server.use(http.get(configUrl, () => HttpResponse.json({ ...incomplete, requestTimeoutMs: 'soon' })));
    const error = (await loadConfig().catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.detail).toContain('apiUrl');
    expect(error.detail).toContain('requestTimeoutMs');
  });

  it('an unreachable server is a ConfigError, not an unhandled failure', async () => {
    server.use(http.get(configUrl, () => HttpResponse.error()));
    await expect(loadConfig()).rejects.toBeInstanceOf(ConfigError);
  });
});
