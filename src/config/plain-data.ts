/**
 * Checks that a config is plain JSON data: objects, arrays, strings, finite numbers, booleans and null.
 * Functions, class instances, symbols, getters and cycles are refused so that a config can be saved,
 * sent to a worker thread or logged without surprises. Handlers go in options, never in the config.
 */

/** The first reason `value` is not plain data, as a path and a reason, or undefined when it is. */
export function findNonPlainData(
  value: unknown,
  path = 'config',
  seen = new Set<object>(),
  depth = 0,
): string | undefined {
  if (depth > 32) return `${path} is nested deeper than 32 levels`;
  if (value === null) return undefined;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${path} is not a finite number`;
    case 'object':
      break;
    default:
      return `${path} is a ${typeof value}; a config holds plain JSON data only (functions go in options)`;
  }
  const object = value as object;
  if (seen.has(object)) return `${path} is a circular reference`;
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      for (let i = 0; i < object.length; i++) {
        const reason = findNonPlainData(object[i], `${path}[${i}]`, seen, depth + 1);
        if (reason) return reason;
      }
      return undefined;
    }
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      return `${path} is a ${object.constructor?.name ?? 'class instance'}; a config holds plain JSON data only`;
    }
    for (const key of Object.keys(object)) {
      const descriptor = Object.getOwnPropertyDescriptor(object, key);
      if (descriptor && (descriptor.get || descriptor.set)) return `${path}.${key} is an accessor, not data`;
      const item = (object as Record<string, unknown>)[key];
      // `undefined` stands for "not set", as TypeScript callers write it.
      if (item === undefined) continue;
      const reason = findNonPlainData(item, `${path}.${key}`, seen, depth + 1);
      if (reason) return reason;
    }
    return undefined;
  } finally {
    seen.delete(object);
  }
}
