import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/** Files the server sends as they are built (pages are rendered per answer; maps stay raw). */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|webmanifest)$/;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every compressible file of a built
 * dist, for the server to send by Accept-Encoding (@fastify/static preCompressed). A version that is
 * not smaller than the file is not written.
 */
export function compressDist(dist: string): { files: number } {
  let files = 0;
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = readFileSync(file);
    const versions = {
      br: brotliCompressSync(content, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gz: gzipSync(content, { level: zlib.Z_BEST_COMPRESSION }),
    };
    for (const [extension, compressed] of Object.entries(versions)) {
      if (compressed.length < content.length) writeFileSync(`${file}.${extension}`, compressed);
    }
    files += 1;
  }
  return { files };
}
