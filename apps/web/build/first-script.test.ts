import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, type Rolldown } from 'vite';
import { RULE_TEXTS, SERVER_PAGE_MESSAGE_CODES, messages } from '@frontdoor/contract';
import { buildResources, partOf } from '../src/lib/i18n/resources.ts';

const WEB_ROOT = path.resolve(import.meta.dirname, '..');

/** The app's chunks as `npm run build` makes them (vite.config.ts), kept in memory. */
async function builtChunks(): Promise<Rolldown.OutputChunk[]> {
  return (await builtFiles()).filter((file) => file.type === 'chunk');
}

async function builtFiles(): Promise<(Rolldown.OutputChunk | Rolldown.OutputAsset)[]> {
  const result = await build({
    root: WEB_ROOT,
    configFile: path.join(WEB_ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    build: { write: false, sourcemap: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((o) => o.output);
}

describe('the first script (issue 10)', () => {
  it("carries the message codes, not their English texts: the English catalogs' chunks do", async () => {
    const chunks = await builtChunks();
    const entry = chunks.find((chunk) => chunk.isEntry);
    const english = chunks
      .filter((chunk) => /virtual:fd-(later-)?catalogs\/en$/.test(chunk.facadeModuleId ?? ''))
      .map((chunk) => chunk.code)
      .join('\n');
    const ruleTexts: readonly string[] = Object.values(RULE_TEXTS);
    const texts = Object.values(messages).filter((text) => !ruleTexts.includes(text));
    // a page in any other language never downloads them (about 1 kB compressed)
    expect(texts.filter((text) => entry?.code.includes(text))).toEqual([]);
    // nor does an English one the server's own pages' words
    const serverPages: readonly string[] = SERVER_PAGE_MESSAGE_CODES.map((code) => messages[code]);
    expect(texts.filter((text) => english.includes(text) === serverPages.includes(text))).toEqual([]);
    // the contract's one side effect survives its `sideEffects` declaration: zod never probes eval
    expect(entry?.code).toContain('jitless');
  }, 60_000);

  it("carries no later page's texts in any language: each language's later catalogs are a chunk the first script never asks for", async () => {
    const chunks = await builtChunks();
    const entry = chunks.find((chunk) => chunk.isEntry);
    for (const [language, catalogs] of Object.entries(buildResources())) {
      const first = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(`virtual:fd-catalogs/${language}`));
      const rest = chunks.find((chunk) =>
        chunk.facadeModuleId?.endsWith(`virtual:fd-later-catalogs/${language}`),
      );
      const textsOf = (laterOnes: boolean) =>
        Object.values(partOf(catalogs, laterOnes)).flatMap((texts) => Object.values(texts));
      const firstTexts = new Set(textsOf(false));
      // the texts a first page has too ("Password") may stay where that page needs them
      const laterOnly = textsOf(true).filter((text) => !firstTexts.has(text));
      expect(laterOnly.length, language).toBeGreaterThan(20);
      // a text as the minifier writes it: a whole string literal, not a part of another ("No", "Not found")
      const holds = (code = '', text: string) =>
        [`\`${text}\``, JSON.stringify(text), `'${text}'`].some((literal) => code.includes(literal));
      expect(
        laterOnly.filter((text) => holds(first?.code, text)),
        language,
      ).toEqual([]);
      expect(
        laterOnly.filter((text) => !holds(rest?.code, text)),
        language,
      ).toEqual([]);
      expect(entry?.imports, language).not.toContain(rest?.fileName);
      expect(entry?.dynamicImports, language).not.toContain(rest?.fileName);
      // the first part names it, so a later page's route starts it beside the page's chunk
      expect(first?.dynamicImports, language).toContain(rest?.fileName);
    }
  }, 60_000);

  it("names CSS modules' classes by a few characters, in the stylesheet and in the script alike", async () => {
    const files = await builtFiles();
    const css = files.find((file) => file.type === 'asset' && file.fileName.endsWith('.css'));
    const entry = files.find((file) => file.type === 'chunk' && file.isEntry);
    const source = css?.type === 'asset' ? String(css.source) : '';
    const classes = new Set(source.match(/(?<=\.)-?[_a-zA-Z][\w-]*/g));
    const own = [...classes].filter((name) => /^[a-zA-Z]+\d+$/.test(name));
    expect(own.length).toBeGreaterThan(50);
    // the rest are global.css's words (visually-hidden), none of Vite's `_name_hash_line`
    expect([...classes].filter((name) => !own.includes(name) && !/^[a-z]+(-[a-z]+)+$/.test(name))).toEqual(
      [],
    );
    const code = entry?.type === 'chunk' ? entry.code : '';
    // as the minifier writes a string: `d0`
    expect(own.filter((name) => code.includes(`\`${name}\``)).length).toBeGreaterThan(30);
  }, 60_000);
});

describe("a later page's chunks (stop 37)", () => {
  it("/code's do not carry the dialog library: its popup downloads only when a resend answers password_reset", async () => {
    const chunks = await builtChunks();
    const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const code = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/verification/CodePage.tsx'));
    // the page's chunk and what it imports statically, less the first script the page already ran
    const graph = new Set<Rolldown.OutputChunk>();
    const visit = (chunk: Rolldown.OutputChunk | undefined) => {
      if (!chunk || chunk.isEntry || graph.has(chunk)) return;
      graph.add(chunk);
      chunk.imports.forEach((file) => visit(byFile.get(file)));
    };
    visit(code);
    const modules = [...graph].flatMap((chunk) => chunk.moduleIds);
    expect(modules.some((id) => id.endsWith('/verification/CodePage.tsx'))).toBe(true);
    expect(modules.filter((id) => /@radix-ui\/react-dialog|\/ui\/Dialog\.tsx/.test(id))).toEqual([]);
    // the popup is still there, one import() away
    const popup = chunks.find((chunk) =>
      chunk.facadeModuleId?.endsWith('/verification/ResetCodeSentDialog.tsx'),
    );
    expect(code?.dynamicImports).toContain(popup?.fileName);
  }, 60_000);
});
