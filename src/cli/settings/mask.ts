/**
 * Settings as shown: every secret masked (`env` and `headers` values, `authToken`, a proxy password) unless
 * revealed on request, as indented lines, and what `set` saved (names only, never a value).
 */
import { fieldRule } from '../../config/index.js';
import { safeText } from '../format.js';

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `•••• (40 chars)`: a secret's length, never its value. */
export function masked(value: unknown): string {
  return typeof value === 'string' ? `•••• (${[...value].length} chars)` : '••••';
}

/**
 * A copy of `config` with every secret masked, by the config field table's `secret` rule: `env` and
 * `headers` values, `authToken`, a proxy password.
 */
export function maskConfig(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    let shown: unknown = value;
    const secret = fieldRule(key)?.secret;
    if (secret === 'values' && isRecord(value))
      shown = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
    else if (secret === 'whole') shown = masked(value);
    else if (secret === 'url-password' && typeof value === 'string') shown = maskedProxy(value);
    Object.defineProperty(out, key, { value: shown, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function maskedProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    if (url.password === '') return proxy;
    url.password = 'xxxx';
    return url.href.replace(':xxxx@', ':••••@');
  } catch {
    return masked(proxy);
  }
}

/** The config as indented lines (values already masked, or revealed on request). */
export function configLines(config: Readonly<Record<string, unknown>>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if ((key === 'env' || key === 'headers') && isRecord(value)) {
      lines.push(`  ${key}:`);
      const separator = key === 'env' ? '=' : ': ';
      for (const [k, v] of Object.entries(value))
        lines.push(
          `    ${safeText(k)}${separator}${safeText(typeof v === 'string' ? v : JSON.stringify(v))}`,
        );
    } else {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      lines.push(`  ${key}: ${safeText(String(text))}`);
    }
  }
  if (lines.length === 0) lines.push('  (empty)');
  return lines;
}

/** What `set` saved, for its one line: field names, env keys and header names, never a value. */
export function savedFields(config: Readonly<Record<string, unknown>>): string {
  return Object.entries(config)
    .map(([key, value]) =>
      (key === 'env' || key === 'headers') && isRecord(value)
        ? `${key} ${Object.keys(value).map(safeText).join(', ')}`
        : key,
    )
    .join('; ');
}
