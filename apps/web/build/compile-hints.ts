import type { Plugin } from 'vite';

/**
 * V8's explicit compile hint (Chrome 136 and later): every function of the file is compiled while the
 * file streams in, on a background thread, instead of on the main thread when first called. It has to
 * be the file's first line.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * A script with the hint on a line of its own before it, and its source map moved down that line (in
 * a map's mappings each `;` starts the next generated line).
 */
export function withCompileHint(code: string, mappings: string): { code: string; mappings: string } {
  return { code: `${COMPILE_HINT}\n${code}`, mappings: `;${mappings}` };
}

/**
 * The hint on the first script: a prerendered page runs nearly every function of it at start-up
 * (React hydrating, the router, the page), which without the hint a slow Chromebook compiles one by
 * one on the main thread, in the tasks that hold a first tap (issue 10's total blocking time). After
 * Vite's own rewriting of the chunk, so that the hint stays on the first line.
 */
export function eagerFirstScript(): Plugin {
  return {
    name: 'fd-eager-first-script',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
          const mapAsset = bundle[`${chunk.fileName}.map`];
          const map =
            mapAsset?.type === 'asset' ? (JSON.parse(String(mapAsset.source)) as { mappings: string }) : null;
          const hinted = withCompileHint(chunk.code, map?.mappings ?? '');
          chunk.code = hinted.code;
          if (chunk.map) chunk.map.mappings = hinted.mappings;
          if (map && mapAsset?.type === 'asset')
            mapAsset.source = JSON.stringify({ ...map, mappings: hinted.mappings });
        }
      },
    },
  };
}
