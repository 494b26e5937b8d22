import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_PAGE_MESSAGE_CODES } from '@frontdoor/contract';
import { BUNDLED_LANGUAGES } from '../src/lib/i18n/languages.ts';
import { LATER_MESSAGE_CODES, LATER_NAMESPACES, buildResources, partOf } from '../src/lib/i18n/resources.ts';
import { catalogModule } from './catalogs.ts';

/** Runs a generated module and answers its default export. */
async function evaluate(source: string): Promise<Record<string, Record<string, string>>> {
  const url = `data:text/javascript,${encodeURIComponent(source)}`;
  return ((await import(/* @vite-ignore */ url)) as { default: Record<string, Record<string, string>> })
    .default;
}

describe('a language chunk of catalogs', () => {
  const resources = buildResources();

  it.each(BUNDLED_LANGUAGES)(
    "%s: its two parts carry all its catalogs, errors translated, less the server's page words",
    async (language) => {
      const first = await evaluate(catalogModule(partOf(resources[language], false)));
      const later = await evaluate(catalogModule(partOf(resources[language], true)));
      const errors = { ...resources[language].errors };
      for (const code of SERVER_PAGE_MESSAGE_CODES) delete errors[code];
      expect({ ...first, ...later, errors: { ...first.errors, ...later.errors } }).toEqual({
        ...resources[language],
        errors,
      });
      expect(JSON.stringify(first)).not.toContain(
        JSON.stringify(resources[language].errors?.useEmailInstead),
      );
    },
  );

  it("the later pages' messages travel in the later part only, with those pages' namespaces", () => {
    const first = partOf(resources.de, false);
    const later = partOf(resources.de, true);
    expect(Object.keys(later.errors ?? {}).sort()).toEqual([...LATER_MESSAGE_CODES].sort());
    expect(Object.keys(first.errors ?? {}).filter((code) => code in (later.errors ?? {}))).toEqual([]);
    expect(Object.keys(later).sort()).toEqual([...LATER_NAMESPACES, 'errors'].sort());
    expect(first.email).toEqual(resources.de.email);
  });

  it("a later page's message is named by later pages only (by its code or a contract schema that carries it)", () => {
    const schemas = fs.readFileSync(
      path.resolve(import.meta.dirname, '../../../packages/contract/src/schemas.ts'),
      'utf8',
    );
    // each top-level declaration of the contract's schemas, and whether it carries a later code
    const declarations = [
      ...schemas.matchAll(
        /^(?:export )?const (\w+)([\s\S]*?)(?=^(?:export )?(?:const|type|function) |(?![\s\S]))/gm,
      ),
    ];
    const names = new Set<string>(LATER_MESSAGE_CODES);
    for (let grown = true; grown;) {
      grown = false;
      for (const [, name = '', body = ''] of declarations)
        if (!names.has(name) && [...names].some((code) => new RegExp(`\\b${code}\\b`).test(body))) {
          names.add(name);
          grown = true;
        }
    }
    expect(names).toContain('emailCodeSchema');
    expect(names).toContain('confirmBody');
    const src = path.resolve(import.meta.dirname, '../src');
    const laterFolders = LATER_NAMESPACES.map((namespace) =>
      path.join(
        'features',
        namespace.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
        path.sep,
      ),
    );
    const named = fs
      .readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|^test\/|resources\.ts$/.test(file))
      .filter((file) => !laterFolders.some((folder) => file.startsWith(folder)))
      .flatMap((file) => {
        const code = fs.readFileSync(path.join(src, file), 'utf8');
        return [...names]
          .filter((name) => new RegExp(`\\b${name}\\b`).test(code))
          .map((name) => `${file}: ${name}`);
      });
    expect(named).toEqual([]);
  });
});
