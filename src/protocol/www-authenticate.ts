/**
 * Parses a `WWW-Authenticate` header (RFC 9110 §11.6.1) into challenges: several per header, each a
 * scheme with a token68 or comma-separated `name=token|"quoted"` params. Used on 401/403 (S25/basic/authorization,
 * S26 authorization-server-discovery). Hostile input: bounded length and counts, linear, never throws.
 */
import type { AuthChallenge } from '../errors/index.js';

/** Longest header text examined; the rest is ignored. */
export const MAX_WWW_AUTHENTICATE_CHARS = 8192;
const MAX_CHALLENGES = 16;
const MAX_PARAMS = 32;

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

const FIELDS: Record<string, keyof Omit<AuthChallenge, 'scheme'>> = {
  resource_metadata: 'resourceMetadata',
  scope: 'scope',
  error: 'error',
  error_description: 'errorDescription',
};

/** Parses every challenge of `header` (joined with `, ` when the header came several times). Never throws. */
export function parseWwwAuthenticate(header: string | readonly string[] | undefined): AuthChallenge[] {
  if (header === undefined) return [];
  const text = (typeof header === 'string' ? header : header.join(', ')).slice(0, MAX_WWW_AUTHENTICATE_CHARS);
  const cursor = new Cursor(text);
  const challenges: AuthChallenge[] = [];
  while (!cursor.done() && challenges.length < MAX_CHALLENGES) {
    cursor.skip(/[\s,]/);
    const scheme = cursor.token();
    if (scheme === '') {
      cursor.advance(); // not a token start: skip one char and resynchronize
      continue;
    }
    const challenge: AuthChallenge = { scheme };
    challenges.push(challenge);
    parseParams(cursor, challenge);
  }
  return challenges;
}

/** Reads the params (or token68) of one challenge, stopping before the next challenge's scheme. */
function parseParams(cursor: Cursor, challenge: AuthChallenge): void {
  // A token68 may only follow the scheme directly (`Basic dXNlcg==`); after a comma a bare token is a new scheme.
  let allowToken68 = true;
  for (let count = 0; count < MAX_PARAMS && !cursor.done(); ) {
    cursor.skip(/[ \t]/);
    if (cursor.peek() === ',') {
      cursor.advance();
      allowToken68 = false;
      continue;
    }
    const start = cursor.pos;
    const name = cursor.token();
    if (name === '' && !(allowToken68 && TOKEN68_CHAR.test(cursor.peek()))) {
      cursor.pos = start;
      return;
    }
    cursor.skip(/[ \t]/);
    if (cursor.peek() !== '=') {
      if (allowToken68 && isToken68Tail(cursor)) {
        allowToken68 = false;
        count++;
        continue;
      }
      cursor.pos = start;
      return;
    }
    // `abc==` at the end or before a comma, directly after the scheme: token68 padding, not a param.
    const afterName = cursor.pos;
    cursor.skip(/=/);
    cursor.skip(/[ \t]/);
    if (allowToken68 && (cursor.done() || cursor.peek() === ',') && looksLikeToken68(name)) {
      allowToken68 = false;
      count++;
      continue;
    }
    allowToken68 = false;
    cursor.pos = afterName + 1;
    cursor.skip(/[ \t]/);
    const value = cursor.peek() === '"' ? cursor.quoted() : cursor.bare();
    count++;
    const field = FIELDS[name.toLowerCase()];
    if (field !== undefined && challenge[field] === undefined) challenge[field] = value;
    // junk after a value: resynchronize at the next comma
    while (!cursor.done() && cursor.peek() !== ',') cursor.advance();
  }
}

/** After a token: accepts the rest of a token68 (`/`, `+`, `=` padding) when a comma or the end follows. */
function isToken68Tail(cursor: Cursor): boolean {
  const save = cursor.pos;
  while (!cursor.done() && TOKEN68_CHAR.test(cursor.peek())) cursor.advance();
  cursor.skip(/=/);
  cursor.skip(/[ \t]/);
  if (cursor.done() || cursor.peek() === ',') return true;
  cursor.pos = save;
  return false;
}

function looksLikeToken68(text: string): boolean {
  for (const ch of text) if (!TOKEN68_CHAR.test(ch)) return false;
  return true;
}

class Cursor {
  pos = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
  done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string {
    return this.text[this.pos] ?? '';
  }
  advance(): void {
    this.pos++;
  }
  skip(set: RegExp): void {
    while (this.pos < this.text.length && set.test(this.text[this.pos] ?? '')) this.pos++;
  }
  token(): string {
    const start = this.pos;
    while (this.pos < this.text.length && TCHAR.test(this.text[this.pos] ?? '')) this.pos++;
    return this.text.slice(start, this.pos);
  }
  /** An unquoted value, leniently: everything up to a comma or whitespace (servers send bare URLs). */
  bare(): string {
    const start = this.pos;
    while (this.pos < this.text.length && !/[,\s]/.test(this.text[this.pos] ?? '')) this.pos++;
    return this.text.slice(start, this.pos);
  }
  /** A quoted-string with `\` escapes; an unterminated one runs to the end of the text. */
  quoted(): string {
    this.pos++; // opening quote
    let out = '';
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos++] ?? '';
      if (ch === '"') return out;
      if (ch === '\\' && this.pos < this.text.length) out += this.text[this.pos++] ?? '';
      else out += ch;
    }
    return out;
  }
}
