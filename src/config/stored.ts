/**
 * A config as a store keeps it. Stores hold JSON, and JSON has no `Infinity` (`JSON.stringify` writes
 * `null`), so at the fields where `Infinity` is data (the field table's `infinity`: `timeoutMs`,
 * `connectTimeoutMs`) it is kept as the string `"Infinity"` and read back as `Infinity`. Without this, a
 * setting saved with `timeoutMs: Infinity` read back as `null` and was called corrupt.
 */
import { fieldRule } from './fields.js';

const STORED_INFINITY = 'Infinity';

/** `config` (already checked) as it is stored: `Infinity` at an `infinity` field as `"Infinity"`. */
export function toStoredConfig(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return mapInfinityFields(config, (value) => (value === Number.POSITIVE_INFINITY ? STORED_INFINITY : value));
}

/** A stored value as a config again (to be checked next): `"Infinity"` at an `infinity` field as `Infinity`. */
export function fromStoredConfig(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return mapInfinityFields(value as Readonly<Record<string, unknown>>, (item) =>
    item === STORED_INFINITY ? Number.POSITIVE_INFINITY : item,
  );
}

function mapInfinityFields(
  config: Readonly<Record<string, unknown>>,
  map: (value: unknown) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const infinity = fieldRule(key)?.infinity === true;
    Object.defineProperty(out, key, {
      value: infinity ? map(value) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
