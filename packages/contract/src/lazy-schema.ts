import './zod-config.ts';
/**
 * A schema built the first time anything reads it. The contract defines every payload schema at the
 * top of its modules, and zod builds each with its checks and internals: eagerly, a sign-in page spent
 * about a tenth of its start-up main-thread time building schemas it never uses (a blocking task on a
 * slow Chromebook). Every read is forwarded to the built schema, so parsing, composing it into other
 * schemas and `instanceof` work as with the schema itself; the type is the schema's own.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let schema: T | undefined;
  const built = (): T => (schema ??= build());
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(built(), key),
    set: (_target, key, value) => Reflect.set(built(), key, value),
    has: (_target, key) => Reflect.has(built(), key),
    ownKeys: () => Reflect.ownKeys(built()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(built(), key);
      // a proxy may only report a property its (empty) target lacks as configurable
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(built(), key, descriptor),
    getPrototypeOf: () => Reflect.getPrototypeOf(built()),
  });
}
