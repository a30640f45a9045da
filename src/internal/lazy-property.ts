/**
 * An own, enumerable property computed on its first read and kept: for values most readers never look at
 * and that cost something to make (tool digests hash with node:crypto). Reads see a plain value
 * (`JSON.stringify`, spreads, `structuredClone` and deep equality read it like any other); copies made
 * with `Object.getOwnPropertyDescriptors` share the one computation. Assigning replaces it with a plain
 * data property. `compute` must be pure: when it runs is up to the reader.
 */
export function defineLazy<T>(target: object, key: string, compute: () => T): void {
  let value: T;
  let done = false;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      if (!done) {
        value = compute();
        done = true;
      }
      return value;
    },
    set(this: object, next: unknown) {
      Object.defineProperty(this, key, { value: next, enumerable: true, writable: true, configurable: true });
    },
  });
}
