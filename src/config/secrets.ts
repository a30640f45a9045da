/**
 * The values of a config that may be secret, found by the field table's `secret` rule: each value of
 * `env` and `headers`, `authToken`, a proxy URL's username and password. The client registers them as
 * known secrets (so `redact` masks them by value); the CLI masks the same fields when it shows a config.
 */
import { fieldRule } from './fields.js';

/** Every secret value of `config` (a config, a partial one, or a transport's normalized part). */
export function secretValues(config: object): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    const rule = fieldRule(key)?.secret;
    if (rule === 'values' && typeof value === 'object' && value !== null)
      out.push(...Object.values(value).filter((item): item is string => typeof item === 'string'));
    else if (rule === 'whole' && typeof value === 'string') out.push(value);
    else if (rule === 'url-password' && typeof value === 'string') out.push(...urlCredentials(value));
  }
  return out;
}

/** A URL's username and password, as written and decoded; none when it has none or is not a URL. */
export function urlCredentials(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const { username, password } = new URL(url);
  return [username, password].flatMap((part) => {
    if (part === '') return [];
    try {
      return [part, decodeURIComponent(part)];
    } catch {
      return [part];
    }
  });
}
