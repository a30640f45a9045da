/**
 * MIME types from a server, made safe to copy and to name files by: `sanitizeMimeType` keeps a plain
 * `type/subtype` (lowercase, parameters dropped, at most 100 characters) or answers
 * `application/octet-stream`; `extensionFor` maps a sanitized type to a file extension through a fixed
 * allow-list, `bin` for anything else. Nothing a server sends reaches a file name any other way.
 */

const FALLBACK = 'application/octet-stream';
const MAX_LENGTH = 100;
/** `type/subtype`, each of word characters, `.`, `+` and `-`. */
const ESSENCE = /^[\w.+-]+\/[\w.+-]+$/;

/** The allow-list: sanitized MIME type → extension (without the dot). */
const EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ['image/png', 'png'],
  ['image/jpeg', 'jpg'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
  ['image/svg+xml', 'svg'],
  ['image/avif', 'avif'],
  ['image/bmp', 'bmp'],
  ['audio/wav', 'wav'],
  ['audio/wave', 'wav'],
  ['audio/x-wav', 'wav'],
  ['audio/mpeg', 'mp3'],
  ['audio/ogg', 'ogg'],
  ['audio/flac', 'flac'],
  ['audio/aac', 'aac'],
  ['audio/mp4', 'm4a'],
  ['audio/webm', 'webm'],
  ['application/pdf', 'pdf'],
  ['application/json', 'json'],
  ['application/zip', 'zip'],
  ['application/gzip', 'gz'],
  ['text/plain', 'txt'],
  ['text/csv', 'csv'],
  ['text/markdown', 'md'],
]);

/**
 * A server's `mimeType` as it may be copied into the output: the part before any `;`, trimmed and
 * lowercased, when it is a plain `type/subtype` of at most 100 characters; else `application/octet-stream`
 * (also for a missing or non-string value). Cost is bounded whatever the input's length.
 */
export function sanitizeMimeType(value: unknown): string {
  if (typeof value !== 'string') return FALLBACK;
  // Parameters can be long; anything past this cannot hold a type of at most 100 characters before a `;`.
  const head = value.slice(0, MAX_LENGTH * 2 + 1);
  const semicolon = head.indexOf(';');
  if (semicolon < 0 && value.length > head.length) return FALLBACK;
  const essence = (semicolon < 0 ? head : head.slice(0, semicolon)).trim().toLowerCase();
  if (essence.length > MAX_LENGTH || !ESSENCE.test(essence)) return FALLBACK;
  return essence;
}

/** The file extension of a sanitized MIME type: from the allow-list, else `bin`. */
export function extensionFor(mimeType: string): string {
  return EXTENSIONS.get(mimeType) ?? 'bin';
}
