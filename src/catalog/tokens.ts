/**
 * Words for the catalog's search: tool names split at case changes, `_`, `-`, `.`, `/` and digits
 * (`getUserRepos` → get, user, repos), lower-cased, with a light English stemmer so `repos`, `repo` and
 * `repositories` meet. Every text is cut before it is read (`MAX_FIELD_CHARS`), so a hostile description
 * costs at most that much work; the scan is one linear pass with no regex backtracking.
 */

/** The characters of one field that are read; the rest of a long description is not indexed. */
export const MAX_FIELD_CHARS = 4_096;
/** Words longer than this are cut: a 10,000-letter "word" is noise, and would make a huge index key. */
const MAX_WORD_CHARS = 40;

/** Words too common in tool descriptions to tell tools apart. */
const STOP = new Set(
  'a an and are as at be by for from has have in into is it its of on or that the this to was were will with you your can may'.split(
    ' ',
  ),
);

/** The search words of `text`, in order, stop words dropped. */
export function words(text: string): string[] {
  const out: string[] = [];
  const cut = text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;
  let start = -1;
  const flush = (end: number) => {
    if (start >= 0) {
      const raw = cut.slice(start, Math.min(end, start + MAX_WORD_CHARS)).toLowerCase();
      const w = stem(raw);
      if (!STOP.has(w)) out.push(w);
    }
    start = -1;
  };
  let previous = OTHER;
  let kind = cut.length > 0 ? classOf(cut.charCodeAt(0)) : OTHER;
  for (let i = 0; i < cut.length; i++) {
    const next = i + 1 < cut.length ? classOf(cut.charCodeAt(i + 1)) : OTHER;
    if (kind === OTHER) {
      flush(i);
    } else {
      // A new word starts at lower→Upper (getUser), digit↔letter (v2api), and at the last capital of a run
      // followed by a lower-case letter (HTTPServer → http, server).
      const boundary =
        previous !== OTHER &&
        ((previous === LOWER && kind === UPPER) ||
          (previous === DIGIT) !== (kind === DIGIT) ||
          (previous === UPPER && kind === UPPER && next === LOWER));
      if (boundary) flush(i);
      if (start < 0) start = i;
    }
    previous = kind;
    kind = next;
  }
  flush(cut.length);
  return out;
}

const LOWER = 0;
const UPPER = 1;
const DIGIT = 2;
const OTHER = 3;

function classOf(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code < 0x80) return OTHER;
  // Letters beyond ASCII are words too (no case split for them); a lone surrogate half counts as a letter.
  const ch = String.fromCharCode(code);
  return ch.toLowerCase() !== ch.toUpperCase() || (code >= 0xd800 && code <= 0xdfff) ? LOWER : OTHER;
}

/**
 * A light suffix stemmer (plural and a few verb forms), enough for tool vocabularies: files → file,
 * queries → query, listing → list; create, created and creating all → creat. Words of 4 letters or fewer
 * are left alone.
 */
export function stem(word: string): string {
  const base = suffixless(word);
  return base.length > 4 && base.endsWith('e') ? base.slice(0, -1) : base;
}

function suffixless(word: string): string {
  if (word.length <= 4) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('ing') && word.length > 6) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 5) return undouble(word.slice(0, -2));
  if (word.endsWith('es') && /(?:ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** `runn` → `run`, `stopp` → `stop`: the doubled consonant of `running`, `stopped`. */
function undouble(word: string): string {
  const last = word.at(-1);
  if (word.length > 3 && last === word.at(-2) && last !== undefined && !'aeioulsz'.includes(last))
    return word.slice(0, -1);
  return word;
}
