import { describe, expect, it } from 'vitest';
import { SERVER_PAGE_MESSAGE_CODES, messages } from '@frontdoor/contract';
import { buildResources } from '../src/lib/i18n/resources.ts';
import { catalogModule } from './catalogs.ts';

/** Runs a generated module, its one import stubbed, and answers its default export. */
async function evaluate(source: string): Promise<Record<string, Record<string, string>>> {
  const stubbed = source.replace(
    "import { messages } from '@frontdoor/contract';\n",
    `const messages = ${JSON.stringify(messages)};\n`,
  );
  const url = `data:text/javascript,${encodeURIComponent(stubbed)}`;
  return ((await import(/* @vite-ignore */ url)) as { default: Record<string, Record<string, string>> })
    .default;
}

describe('a language chunk of catalogs', () => {
  const resources = buildResources();

  it("English imports the contract's messages as its errors, with no second copy of them", async () => {
    const source = catalogModule('en', resources.en);
    expect(source).toContain("import { messages } from '@frontdoor/contract';");
    expect(source).not.toContain(JSON.stringify(messages.unknownError));
    expect(await evaluate(source)).toEqual(resources.en);
  });

  it("any other language carries all its catalogs, its errors translated, less the server's page words", async () => {
    const source = catalogModule('de', resources.de);
    expect(source).not.toContain('import');
    const errors = { ...resources.de?.errors };
    for (const code of SERVER_PAGE_MESSAGE_CODES) delete errors[code];
    expect(await evaluate(source)).toEqual({ ...resources.de, errors });
    expect(source).not.toContain(JSON.stringify(resources.de?.errors?.useEmailInstead));
  });
});
