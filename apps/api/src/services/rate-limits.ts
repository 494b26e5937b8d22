import type { AppConfig } from '../config.ts';

/**
 * The strict tier: calls that create accounts, check secrets or send mail. The global tier
 * (300/min per client) covers the rest of the API. RATE_LIMIT_MULTIPLIER scales both.
 */
export const strictRateLimit = (config: Pick<AppConfig, 'rateLimitMultiplier'>) => ({
  rateLimit: { max: Math.ceil(10 * config.rateLimitMultiplier), timeWindow: '1 minute' },
});
