import { ReadableStream, TransformStream, WritableStream } from 'node:stream/web';

// The tests run in a VM context (pool vmThreads, vitest.config.ts) whose jsdom window has no web
// streams; MSW needs them when it loads.
Object.assign(globalThis, { ReadableStream, TransformStream, WritableStream });
