import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, type Rolldown } from 'vite';
import { RULE_TEXTS, messages } from '@frontdoor/contract';

const WEB_ROOT = path.resolve(import.meta.dirname, '..');

/** The app's chunks as `npm run build` makes them (vite.config.ts), kept in memory. */
async function builtChunks(): Promise<Rolldown.OutputChunk[]> {
  const result = await build({
    root: WEB_ROOT,
    configFile: path.join(WEB_ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    build: { write: false, sourcemap: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((o) => o.output.filter((file) => file.type === 'chunk'));
}

describe('the first script (issue 10)', () => {
  it("carries the message codes, not their English texts: the English catalog's chunk does", async () => {
    const chunks = await builtChunks();
    const entry = chunks.find((chunk) => chunk.isEntry);
    const english = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('virtual:fd-catalogs/en'));
    const ruleTexts: readonly string[] = Object.values(RULE_TEXTS);
    const texts = Object.values(messages).filter((text) => !ruleTexts.includes(text));
    // a page in any other language never downloads them (about 1 kB compressed)
    expect(texts.filter((text) => entry?.code.includes(text))).toEqual([]);
    expect(texts.filter((text) => !english?.code.includes(text))).toEqual([]);
    // the contract's one side effect survives its `sideEffects` declaration: zod never probes eval
    expect(entry?.code).toContain('jitless');
  }, 60_000);
});
