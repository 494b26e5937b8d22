import { createContext, useContext } from 'react';
import { CONFIG_ELEMENT_ID, CONFIG_PATH, configSchema } from '@frontdoor/contract';
import type { PortalConfig } from '@frontdoor/contract';

/** Why config.json could not be used; the boot screen shows it instead of a blank page. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** config.json as the server inlined it into the page (CONFIG_ELEMENT_ID), else fetched. */
async function configJson(fetchImpl: typeof fetch): Promise<unknown> {
  const inline = document.getElementById(CONFIG_ELEMENT_ID)?.textContent;
  if (inline) {
    try {
      return JSON.parse(inline);
    } catch {
      throw new ConfigError(
        'The configuration file is malformed.',
        `#${CONFIG_ELEMENT_ID} is not valid JSON`,
      );
    }
  }
  let response: Response;
  try {
    response = await fetchImpl(CONFIG_PATH, { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch (error) {
    throw new ConfigError('The configuration file could not be loaded.', String(error));
  }
  if (!response.ok) {
    throw new ConfigError(
      'The configuration file could not be loaded.',
      `${CONFIG_PATH} answered ${response.status}`,
    );
  }
  try {
    return await response.json();
  } catch {
    throw new ConfigError('The configuration file is malformed.', `${CONFIG_PATH} is not valid JSON`);
  }
}

/**
 * The config of /assets/cfg/config.json (never under apiUrl: it says where the API is): the copy the
 * server put into the page, or fetched when there is none; validated with the contract's
 * configSchema. Throws ConfigError when it is missing, not JSON or not valid.
 */
export async function loadConfig(fetchImpl: typeof fetch = fetch): Promise<PortalConfig> {
  const parsed = configSchema.safeParse(await configJson(fetchImpl));
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new ConfigError('The configuration file is malformed.', `Invalid or missing fields: ${fields}`);
  }
  return parsed.data;
}

const ConfigContext = createContext<PortalConfig | null>(null);
export const ConfigProvider = ConfigContext.Provider;

/** The loaded config.json; the app renders nothing that needs it before it is loaded. */
export function useConfig(): PortalConfig {
  const cfg = useContext(ConfigContext);
  if (!cfg) throw new Error('useConfig() used outside <ConfigProvider>');
  return cfg;
}
