/**
 * Exact-match masking of known secret values: each value's forms (as written, URL-encoded, JSON-escaped,
 * base64 at each byte alignment) go into one Aho-Corasick automaton, and a text is masked in one pass,
 * every character read once (the fail links cost at most one step back per step forward), whatever the
 * number of values. Pure; the registry of the values a caller handed in is known-secrets.ts.
 */
import { MASK } from './text-cuts.js';

/** Most children of a node looked up by walking its list; a node with more has them in a map. */
const NARROW = 4;

/** Values shorter than this are not masked: too likely to be ordinary words, numbers or ports. */
export const MIN_SECRET_CHARS = 6;

/**
 * The forms a value of at least `MIN_SECRET_CHARS` characters may take in server text (none for a
 * shorter one), each at least `MIN_SECRET_CHARS` long: as given,
 * URL-encoded (`%20` and `+` for spaces), JSON-escaped (also with non-ASCII as `\uXXXX`), and base64
 * (standard and URL-safe): the whole value's encoding, and the characters of its encoding that depend
 * only on its own bytes at each of the three byte alignments, so it is found inside a longer base64
 * text too (`Basic base64(id:secret)`).
 */
export function secretForms(value: string): string[] {
  if (value.length < MIN_SECRET_CHARS) return [];
  const forms = new Set<string>([value]);
  try {
    const url = encodeURIComponent(value);
    forms.add(url);
    forms.add(url.replace(/%20/g, '+'));
  } catch {
    // A lone surrogate has no URL form.
  }
  const json = JSON.stringify(value).slice(1, -1);
  forms.add(json);
  forms.add(json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const bytes = Buffer.from(value, 'utf8');
  const whole = bytes.toString('base64');
  for (const b64 of [whole, whole.replace(/=+$/, ''), ...[0, 1, 2].map((k) => alignedCore(bytes, k))]) {
    forms.add(b64);
    forms.add(b64.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].filter((form) => form.length >= MIN_SECRET_CHARS);
}

/**
 * The base64 characters of `bytes` preceded by `shift` other bytes that depend on `bytes` alone: a
 * character holds bits [6j, 6j+6) of the stream, kept when they all fall within the value's bytes.
 */
function alignedCore(bytes: Buffer, shift: number): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
  const first = Math.ceil((8 * shift) / 6);
  const last = Math.floor((8 * (shift + bytes.length) - 6) / 6);
  return last < first ? '' : encoded.slice(first, last + 1);
}

/** A set of forms compiled for masking. */
export class SecretMatcher {
  /** Transitions from the root, by UTF-16 code unit (most characters of most texts stop here). */
  readonly #root = new Int32Array(0x10000);
  /** Each node's children as a list (first child, next sibling, the code leading to it). */
  readonly #firstChild: Int32Array;
  readonly #nextSibling: Int32Array;
  readonly #codeOf: Uint16Array;
  /** How many children a node has; past `NARROW`, they are also in `#wide`. */
  readonly #children: Int32Array;
  /** The transitions of nodes with many children, keyed `node * 0x10000 + code`. */
  readonly #wide = new Map<number, number>();
  readonly #fail: Int32Array;
  readonly #depth: Int32Array;
  /** The longest form that ends at this node (itself or through its fail links), 0 when none. */
  readonly #out: Int32Array;
  /** The longest form, in characters. */
  readonly longest: number;

  /** `forms`: the strings to mask (empty ones are ignored). Time and space linear in their total length. */
  constructor(forms: Iterable<string>) {
    const list = [...forms].filter((form) => form.length > 0);
    const size = list.reduce((sum, form) => sum + form.length, 1);
    this.#fail = new Int32Array(size);
    this.#depth = new Int32Array(size);
    this.#out = new Int32Array(size);
    this.#firstChild = new Int32Array(size);
    this.#nextSibling = new Int32Array(size);
    this.#codeOf = new Uint16Array(size);
    this.#children = new Int32Array(size);
    let nodes = 1;
    let longest = 0;
    for (const form of list) {
      longest = Math.max(longest, form.length);
      let node = 0;
      for (let i = 0; i < form.length; i++) {
        const code = form.charCodeAt(i);
        let child = this.#step(node, code);
        if (child === 0) {
          child = nodes++;
          this.#depth[child] = i + 1;
          this.#link(node, code, child);
        }
        node = child;
      }
      this.#out[node] = form.length;
    }
    this.longest = longest;
    // Fail links breadth first: a node's fail target is shallower, so already done. Along each form the
    // fail depth rises by at most one per character, so the walks back cost the forms' total length.
    const queue = new Int32Array(nodes);
    let tail = 1;
    for (let head = 0; head < tail; head++) {
      const node = queue[head] as number;
      for (
        let child = this.#firstChild[node] as number;
        child !== 0;
        child = this.#nextSibling[child] as number
      ) {
        const code = this.#codeOf[child] as number;
        let fail = 0;
        if (node !== 0) {
          let f = this.#fail[node] as number;
          while (f !== 0 && this.#step(f, code) === 0) f = this.#fail[f] as number;
          fail = this.#step(f, code);
        }
        this.#fail[child] = fail;
        this.#out[child] = Math.max(this.#out[child] as number, this.#out[fail] as number);
        queue[tail++] = child;
      }
    }
  }

  /** Adds the edge `node --code--> child`. */
  #link(node: number, code: number, child: number): void {
    this.#codeOf[child] = code;
    this.#nextSibling[child] = this.#firstChild[node] as number;
    this.#firstChild[node] = child;
    const count = ++(this.#children[node] as number);
    if (node === 0) this.#root[code] = child;
    else if (count > NARROW) {
      // Past NARROW children a list would cost a step per child: the node's edges go to the map.
      for (let c = this.#firstChild[node] as number; c !== 0; c = this.#nextSibling[c] as number) {
        this.#wide.set(node * 0x10000 + (this.#codeOf[c] as number), c);
        if (count > NARROW + 1) break;
      }
    }
  }

  /** The child of `node` by `code`, else 0 (the root). At most `NARROW` comparisons or one map lookup. */
  #step(node: number, code: number): number {
    if (node === 0) return this.#root[code] as number;
    if ((this.#children[node] as number) > NARROW) return this.#wide.get(node * 0x10000 + code) ?? 0;
    for (let c = this.#firstChild[node] as number; c !== 0; c = this.#nextSibling[c] as number) {
      if (this.#codeOf[c] === code) return c;
    }
    return 0;
  }

  /**
   * `text` with every occurrence of a form (overlapping ones merged) replaced by `[redacted]`, from the
   * place where `text[from]` ends up (inside a mask: that mask's start). With `cutEnd`, the text was cut
   * after its last character: an end that starts a form is masked too (the rest of the form was cut off).
   * One pass; the masked spans are kept on a stack whose pops are paid for by their pushes.
   */
  mask(text: string, from = 0, cutEnd = false): string {
    const starts: number[] = [];
    const ends: number[] = [];
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      while (node !== 0 && this.#step(node, code) === 0) node = this.#fail[node] as number;
      node = this.#step(node, code);
      const length = this.#out[node] as number;
      if (length > 0) push(starts, ends, i + 1 - length, i + 1);
    }
    if (cutEnd && node !== 0) push(starts, ends, text.length - (this.#depth[node] as number), text.length);
    if (starts.length === 0) return from === 0 ? text : text.slice(from);
    let out = '';
    let copied = from;
    for (let k = 0; k < starts.length; k++) {
      const start = starts[k] as number;
      const end = ends[k] as number;
      if (end <= from) continue;
      if (start > copied) out += text.slice(copied, start);
      out += MASK;
      copied = end;
    }
    return out + text.slice(copied);
  }
}

/** Adds span [start, end) after merging it with the spans it overlaps (spans come in order of their end). */
function push(starts: number[], ends: number[], start: number, end: number): void {
  let from = start;
  while (ends.length > 0 && (ends[ends.length - 1] as number) > from) {
    from = Math.min(from, starts.pop() as number);
    ends.pop();
  }
  starts.push(from);
  ends.push(end);
}
