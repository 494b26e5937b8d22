import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * A checkout of the server of its own in a temporary directory: the API's sources and the package
 * files copied, the installed packages linked. What it reads at its root (.env) is the copy's, never
 * the repository's, which may be a developer's own.
 */
export function serverCheckout(): { root: string; file: (name: string) => string; remove: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'fd-checkout-'));
  cpSync(path.join(REPO, 'apps/api/src'), path.join(root, 'apps/api/src'), { recursive: true });
  for (const file of ['package.json', 'apps/api/package.json'])
    cpSync(path.join(REPO, file), path.join(root, file));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  return {
    root,
    file: (name) => path.join(root, 'apps/api/src', name),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
