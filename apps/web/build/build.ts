/**
 * `npm run build` of the SPA: the Vite build, then the login pages prerendered in every bundled
 * language (an SSR build of src/prerender.tsx, run here, thrown away after), then .br and .gz beside
 * every file the server sends. Run by Node itself (its TypeScript support):
 * `node build/build.ts [outDir]` (default dist).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { compressDist } from './compress.ts';
import { prerenderPages, type PrerenderEntry } from './prerender.ts';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
// inside the app, so that the SSR build's imports of packages resolve from its node_modules
const ssrOut = path.join(root, 'node_modules', '.prerender');
// Vite names virtual modules in its manifest relative to the working directory: build from the app's
// own, whichever directory the command was started in
process.chdir(root);

await build({ root, build: { outDir: dist, emptyOutDir: true } });
await build({
  root,
  logLevel: 'warn',
  build: {
    ssr: 'src/prerender.tsx',
    outDir: ssrOut,
    emptyOutDir: true,
    manifest: false,
    sourcemap: false,
    // imported by its name below, not served: no hash
    rolldownOptions: { output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' } },
  },
});
try {
  const entry = (await import(pathToFileURL(path.join(ssrOut, 'prerender.js')).href)) as PrerenderEntry;
  const manifest = await prerenderPages(dist, entry);
  console.info(
    `prerendered ${Object.keys(manifest.pages).length} paths in ${manifest.languages.length} languages`,
  );
} finally {
  rmSync(ssrOut, { recursive: true, force: true });
}
// the build manifest was for the prerendering only
rmSync(path.join(dist, '.vite'), { recursive: true, force: true });
console.info(`compressed ${compressDist(dist).files} files`);
