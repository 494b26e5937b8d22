import { describe, expect, it } from 'vitest';
import type { Rolldown } from 'vite';
import { COMPILE_HINT, eagerFirstScript, withCompileHint } from './compile-hints.ts';

describe("V8's compile hint on the first script (issue 10)", () => {
  it('puts the hint on the first line and moves the source map down one line', () => {
    expect(withCompileHint('const a=1;\nexport{a};', 'AAAA;AACA')).toEqual({
      code: `${COMPILE_HINT}\nconst a=1;\nexport{a};`,
      mappings: ';AAAA;AACA',
    });
  });

  it('marks the entry chunk and its map file, and no other chunk', () => {
    const map = (mappings: string) => ({ version: 3, sources: ['src/main.tsx'], names: [], mappings });
    const bundle = {
      'static/index.js': {
        type: 'chunk',
        isEntry: true,
        fileName: 'static/index.js',
        code: 'boot();',
        map: map('AAAA'),
      },
      'static/index.js.map': {
        type: 'asset',
        fileName: 'static/index.js.map',
        source: JSON.stringify(map('AAAA')),
      },
      'static/Page.js': {
        type: 'chunk',
        isEntry: false,
        fileName: 'static/Page.js',
        code: 'page();',
        map: null,
      },
    } as unknown as Rolldown.OutputBundle;
    const plugin = eagerFirstScript();
    const hook = plugin.generateBundle as {
      handler: (options: unknown, bundle: Rolldown.OutputBundle) => void;
    };
    hook.handler({}, bundle);
    const chunk = (name: string) => bundle[name] as { code: string; map: { mappings: string } | null };
    expect(chunk('static/index.js').code).toBe(`${COMPILE_HINT}\nboot();`);
    expect(chunk('static/index.js').map?.mappings).toBe(';AAAA');
    const asset = bundle['static/index.js.map'] as { source: string };
    expect(JSON.parse(asset.source)).toEqual(map(';AAAA'));
    expect(chunk('static/Page.js').code).toBe('page();');
  });
});
