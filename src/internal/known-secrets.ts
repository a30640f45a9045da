/**
 * The secrets the caller handed in, known by value: each open connection registers its `env` values
 * (with the `envFrom` settings resolved), header values, `authToken` and what its authorizer hands out
 * (access and refresh tokens, client secrets), and releases them once closed. `redact` masks every
 * registered value, and its common encodings, in every text it sees, so an error is safe from the moment
 * it is built, through `toJSON()` and a thread boundary. One set per thread, the union of its open
 * connections: a value is masked in another connection's text too (over-masking is accepted; leaking is not).
 */
import { MIN_SECRET_CHARS, SecretMatcher, secretForms } from './secret-matcher.js';
import { MASK } from './text-cuts.js';

/** Longest value masked, in characters; a longer value (a whole file) is not looked for. */
export const MAX_SECRET_CHARS = 16 * 1024;
/** Most characters of forms (about 10 per character of value) masked at once, over all connections. */
export const MAX_FORM_CHARS = 1024 * 1024;

/** One connection's secrets, registered until `release()`. */
export interface SecretRegistration {
  /** Adds values (e.g. a token the authorizer just handed out); too short or too long ones are skipped. */
  add(values: Iterable<string | undefined>): void;
  /** Forgets this connection's values. Idempotent. */
  release(): void;
}

const active = new Set<Set<string>>();
/** The matcher for `active`; `null` when it must be rebuilt, `undefined` when nothing is registered. */
let matcher: SecretMatcher | undefined | null;

/** Registers `values` (strings of at least 6 characters are kept) until the registration is released. */
export function registerSecrets(values: Iterable<string | undefined> = []): SecretRegistration {
  const own = new Set<string>();
  active.add(own);
  const registration: SecretRegistration = {
    add(more) {
      for (const value of more) {
        if (!maskable(value) || own.has(value)) continue;
        own.add(value);
        if (active.has(own)) matcher = null;
      }
    },
    release() {
      if (active.delete(own) && own.size > 0) matcher = null;
    },
  };
  registration.add(values);
  return registration;
}

function maskable(value: string | undefined): value is string {
  return (
    typeof value === 'string' &&
    value.length >= MIN_SECRET_CHARS &&
    value.length <= MAX_SECRET_CHARS &&
    // A value inside the mask itself would be masked again on every pass.
    !MASK.includes(value)
  );
}

/**
 * The matcher of every registered value, built when the set changed: the forms of the values in the
 * order they came, up to `MAX_FORM_CHARS` characters in all (the values past it are not masked). Built in
 * time linear in those characters; undefined when nothing is registered.
 */
export function knownSecrets(): SecretMatcher | undefined {
  if (matcher !== null) return matcher;
  const forms: string[] = [];
  let total = 0;
  for (const values of active) {
    for (const value of values) {
      const more = secretForms(value);
      const chars = more.reduce((sum, form) => sum + form.length, 0);
      if (total + chars > MAX_FORM_CHARS) continue;
      total += chars;
      forms.push(...more);
    }
  }
  matcher = forms.length === 0 ? undefined : new SecretMatcher(forms);
  return matcher;
}

/**
 * JSON-RPC error data with every known secret masked in its strings, at any depth and in keys too. The
 * data as it is when nothing is registered or nothing matched; otherwise a copy, read back from JSON
 * whose strings were masked one by one (a value JSON-escaped inside a string is found at that string's
 * level), then whose text was masked (keys). Data that cannot be serialized (too deep) becomes the mask.
 */
export function maskKnownInData(data: unknown): unknown {
  const found = knownSecrets();
  if (found === undefined || data === undefined) return data;
  let changed = false;
  let json: string | undefined;
  try {
    json = JSON.stringify(data, (_key, value: unknown) => {
      if (typeof value !== 'string') return value;
      const masked = found.mask(value);
      if (masked !== value) changed = true;
      return masked;
    });
  } catch {
    return MASK;
  }
  if (json === undefined) return data;
  const text = found.mask(json);
  if (!changed && text === json) return data;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A mask across the JSON's punctuation (a value holding `",`): the strings alone were masked.
    return JSON.parse(json) as unknown;
  }
}
