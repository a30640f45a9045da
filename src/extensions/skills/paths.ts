/**
 * Where each file of a skill's manifest goes under the folder `readSkill` writes: its URI relative to the
 * skill's folder URI, split into path segments that are safe on every file system. A URI outside the
 * skill's folder, one the URL parser rewrites (dot segments, `%2e%2e`), a segment that is empty, `.` or
 * `..`, holds a separator, NUL, a control character or `:`, ends in a dot or a space, or is a reserved
 * Windows name (`CON`, `NUL`, `COM1`…), and two files that land on the same path on a case-insensitive
 * system, are refused: the whole skill, before anything is read. Pure.
 */
import { canonicalUri } from './check.js';

/** Deepest folder nesting accepted inside a skill. */
const MAX_DEPTH = 32;
/** Longest segment, in UTF-8 bytes (most file systems: 255). */
const MAX_SEGMENT_BYTES = 255;

const RESERVED = /^(con|prn|aux|nul|com[\d¹²³]|lpt[\d¹²³])(\..*)?$/i;
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f/\\:]/;

/** A segment's problem, or undefined when it is a safe file or folder name. */
function segmentProblem(segment: string): string | undefined {
  if (segment === '' || segment === '.' || segment === '..') return 'an empty, "." or ".." segment';
  if (UNSAFE_CHARACTER.test(segment)) return 'a separator, NUL, control character or ":" in a name';
  if (/[. ]$/.test(segment)) return 'a name that ends in a dot or a space';
  if (RESERVED.test(segment)) return 'a reserved device name';
  if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) return 'a name longer than 255 bytes';
  return undefined;
}

/** The file's path segments under the skill's folder, or the reason it has none. */
export function relativeSegments(root: string, uri: string): { segments: string[] } | { problem: string } {
  const canonical = canonicalUri(uri);
  if (canonical === undefined) return { problem: 'not a URI' };
  if (canonical !== uri) return { problem: 'not in the form the URL parser writes (dot segments?)' };
  if (/[?#]/.test(canonical)) return { problem: 'a query or fragment' };
  if (!canonical.startsWith(`${root}/`)) return { problem: "outside the skill's folder" };
  const raw = canonical.slice(root.length + 1).split('/');
  if (raw.length > MAX_DEPTH) return { problem: `more than ${MAX_DEPTH} folders deep` };
  const segments: string[] = [];
  for (const part of raw) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return { problem: 'a malformed percent escape' };
    }
    const problem = segmentProblem(segment);
    if (problem !== undefined) return { problem };
    segments.push(segment);
  }
  return { segments };
}

/** Paths that would be one on a case-insensitive or normalizing file system collide. */
const foldKey = (segments: readonly string[]): string =>
  segments.map((segment) => segment.normalize('NFC').toLowerCase()).join('/');

/**
 * The first collision among these paths: two files on one path, or a file where another needs a folder
 * (`a` and `a/b`). Undefined when there is none.
 */
export function collision(paths: readonly (readonly string[])[]): string | undefined {
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const segments of paths) {
    const key = foldKey(segments);
    if (files.has(key) || folders.has(key)) return segments.join('/');
    files.add(key);
    for (let depth = 1; depth < segments.length; depth++) {
      const folder = foldKey(segments.slice(0, depth));
      if (files.has(folder)) return segments.join('/');
      folders.add(folder);
    }
  }
  return undefined;
}
