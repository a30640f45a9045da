/**
 * Large texts of a result cross from the worker thread to its owner as bytes, transferred, instead of
 * being cloned: the structured clone of an 8 MiB string cost ~10 ms here (copied into the message, then
 * out of it), encoding it to Latin-1 bytes and decoding them on the other side ~2 ms. Only the places
 * results keep their bulk are looked at: `content[i]` and `contents[i]` (`text`, `data`, `blob`, and an
 * embedded `resource`'s `text` and `blob`). Text whose every character is at most U+00FF goes as Latin-1
 * (one byte a character; V8 answers that check at once for a one-byte string), any other as UTF-16 code
 * units: both are exact for every JS string, lone surrogates included. Used only on the owner's private
 * `MessagePort` (a `BroadcastChannel` cannot transfer).
 */
import { isArrayBuffer } from 'node:util/types';

/** Texts shorter than this are cloned with the rest of the result (a transfer has its own fixed cost). */
export const LIFT_MIN_CHARS = 64 * 1024;

const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;
const LISTS = ['content', 'contents'] as const;
const KEYS = ['text', 'data', 'blob'] as const;

/** One lifted text: where it was (`[list, index, inResource, key]`), how it is encoded, and its bytes. */
export type LiftedText = readonly [
  list: (typeof LISTS)[number],
  index: number,
  inResource: boolean,
  key: (typeof KEYS)[number],
  encoding: 'latin1' | 'utf16le',
  bytes: ArrayBuffer,
];

/** A result with its large texts taken out (`''` in their place), and their bytes to transfer. */
export interface Lifted {
  readonly value: unknown;
  readonly texts: LiftedText[];
  readonly transfer: ArrayBuffer[];
}

/**
 * Takes the large texts out of `value` (never changing it: the containers on the way are copied), or
 * undefined when there is none.
 */
export function liftLargeText(value: unknown): Lifted | undefined {
  if (!isRecord(value)) return undefined;
  let out: Record<string, unknown> | undefined;
  const texts: LiftedText[] = [];
  for (const list of LISTS) {
    const items = value[list];
    if (!Array.isArray(items)) continue;
    let copy: unknown[] | undefined;
    for (let index = 0; index < items.length; index++) {
      const item: unknown = items[index];
      if (!isRecord(item)) continue;
      let block = liftFields(item, list, index, false, texts);
      const resource = block['resource'];
      if (isRecord(resource)) {
        const inner = liftFields(resource, list, index, true, texts);
        if (inner !== resource) block = { ...block, resource: inner };
      }
      if (block === item) continue;
      copy ??= [...items];
      copy[index] = block;
    }
    if (copy === undefined) continue;
    out ??= { ...value };
    out[list] = copy;
  }
  if (out === undefined) return undefined;
  return { value: out, texts, transfer: texts.map((text) => text[5]) };
}

function liftFields(
  item: Record<string, unknown>,
  list: LiftedText[0],
  index: number,
  inResource: boolean,
  texts: LiftedText[],
): Record<string, unknown> {
  let out = item;
  for (const key of KEYS) {
    const text = item[key];
    if (typeof text !== 'string' || text.length < LIFT_MIN_CHARS) continue;
    const encoding = BEYOND_LATIN1.test(text) ? 'utf16le' : 'latin1';
    const bytes = Buffer.from(text, encoding);
    // A buffer this large has an ArrayBuffer of its own (never Node's shared pool); checked anyway.
    if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) continue;
    if (out === item) out = { ...item };
    out[key] = '';
    texts.push([list, index, inResource, key, encoding, bytes.buffer as ArrayBuffer]);
  }
  return out;
}

/** Puts the lifted texts back into `value` (the copy `liftLargeText` made, now this thread's own). */
export function restoreLargeText(value: unknown, texts: readonly LiftedText[]): unknown {
  if (!isRecord(value) || !Array.isArray(texts)) return value;
  for (const entry of texts) {
    // Only what `liftLargeText` makes is read (the reply came from another thread: checked, not trusted).
    if (!Array.isArray(entry) || !isArrayBuffer(entry[5])) continue;
    const [list, index, inResource, key, encoding, bytes] = entry;
    if (!LISTS.includes(list) || !KEYS.includes(key)) continue;
    if (encoding !== 'latin1' && encoding !== 'utf16le') continue;
    const items = value[list];
    const item: unknown = Array.isArray(items) ? items[index] : undefined;
    if (!isRecord(item)) continue;
    const holder = inResource ? item['resource'] : item;
    if (isRecord(holder)) holder[key] = Buffer.from(bytes).toString(encoding);
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
