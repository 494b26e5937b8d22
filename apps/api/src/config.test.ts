import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has development defaults: port 8080, localhost public url, dev mailbox and dev IdP, cookies not Secure', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      env: 'development',
      production: false,
      port: 8080,
      publicUrl: 'http://localhost:8080',
      devMailbox: true,
      devIdp: true,
      cookieSecure: false,
      rateLimitMultiplier: 1,
      redisUrl: undefined,
      redisPrefix: 'frontdoor:',
    });
  });

  it('reads the environment', () => {
    const c = loadConfig({
      PORT: '9000',
      PUBLIC_URL: 'https://portal.test/',
      CORS_ORIGINS: 'https://a.test, https://b.test/',
      SMTP_URL: 'smtp://mail.test',
      RATE_LIMIT_MULTIPLIER: '50',
      REDIS_URL: 'redis://cache.test:6379/2',
      REDIS_PREFIX: 'portal-a:',
    });
    expect(c).toMatchObject({
      port: 9000,
      publicUrl: 'https://portal.test',
      corsOrigins: ['https://a.test', 'https://b.test'],
      devMailbox: false,
      cookieSecure: true,
      rateLimitMultiplier: 50,
      redisUrl: 'redis://cache.test:6379/2',
      redisPrefix: 'portal-a:',
    });
  });

  it('refuses production without SMTP_URL, with the dev IdP or mailbox, or without SECRET', () => {
    const prod = {
      APP_ENV: 'production',
      PUBLIC_URL: 'https://portal.test',
      SMTP_URL: 'smtp://mail.test',
      SECRET: 's3cret',
    };
    expect(loadConfig(prod)).toMatchObject({ production: true, devIdp: false, devMailbox: false });
    expect(() => loadConfig({ ...prod, SMTP_URL: '' })).toThrow(/SMTP_URL is required/);
    expect(() => loadConfig({ ...prod, DEV_IDP: '1' })).toThrow(/DEV_IDP/);
    expect(() => loadConfig({ ...prod, DEV_MAILBOX: 'true' })).toThrow(/DEV_MAILBOX/);
    expect(() => loadConfig({ ...prod, SECRET: undefined })).toThrow(ConfigError);
  });

  it('refuses a bad port, public url, multiplier or Redis URL', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_MULTIPLIER: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: 'cache.test:6379' })).toThrow(/REDIS_URL/);
  });
});
