/**
 * One skill file's bytes out of a `resources/read` answer, checked against its manifest entry before
 * anyone writes them: the answer must hold exactly one contents for the URI asked (another URI is an
 * unlisted file), its size must be the manifest's (measured before anything is decoded, so an oversized
 * answer is never copied), and its SHA-256 the manifest's digest. Pure. Spec: SEP-2640 (each read is
 * verified against the manifest; an unlisted file counts as a change).
 */
import { createHash } from 'node:crypto';
import { McpError } from '../../errors/index.js';
import { canonicalUri } from './check.js';
import type { SkillFile, SkillProblem } from './types.js';

type Fields = Record<string, unknown>;

// One character class, greedy: linear on a long blob (checked after its length matched the manifest).
const BASE64 = /^[A-Za-z\d+/]*={0,2}$/;

/** A refusal of the skill: `kind: 'skill_rejected'`, the problem and the file's URI in `data`. */
export function rejected(problem: SkillProblem, uri: string, message: string): McpError {
  return new McpError('skill_rejected', message, {
    delivery: 'delivered',
    data: { problem, uri: uri.slice(0, 2048) },
  });
}

/** Bytes a base64 string decodes to, from its length alone. */
function base64Size(blob: string): number {
  const padding = blob.endsWith('==') ? 2 : blob.endsWith('=') ? 1 : 0;
  return (blob.length / 4) * 3 - padding;
}

/** The file's bytes, verified; a `skill_rejected` error when they are not the manifest's. */
export function verifiedBytes(result: Fields, file: SkillFile, what: string): Buffer {
  const contents = result['contents'];
  if (!Array.isArray(contents))
    throw new McpError('protocol', `${what}: the result has no contents array`, { delivery: 'delivered' });
  const wanted = canonicalUri(file.uri);
  const mine: Fields[] = [];
  for (const entry of contents) {
    const uri = typeof entry === 'object' && entry !== null ? (entry as Fields)['uri'] : undefined;
    if (typeof uri !== 'string' || canonicalUri(uri) !== wanted)
      throw rejected('unlisted', file.uri, `${what}: the answer holds a file the manifest does not list`);
    mine.push(entry as Fields);
  }
  const [only, extra] = mine;
  if (only === undefined) throw rejected('missing', file.uri, `${what}: the answer holds no contents`);
  if (extra !== undefined)
    throw rejected('unlisted', file.uri, `${what}: the answer holds the file more than once`);
  const text = only['text'];
  const blob = only['blob'];
  let bytes: Buffer;
  if (typeof text === 'string' && blob === undefined) {
    if (Buffer.byteLength(text, 'utf8') !== file.size) throw sizeError(file, what);
    bytes = Buffer.from(text, 'utf8');
  } else if (typeof blob === 'string' && text === undefined) {
    if (blob.length % 4 !== 0)
      throw new McpError('protocol', `${what}: blob is not base64`, { delivery: 'delivered' });
    if (base64Size(blob) !== file.size) throw sizeError(file, what);
    if (!BASE64.test(blob))
      throw new McpError('protocol', `${what}: blob is not base64`, { delivery: 'delivered' });
    bytes = Buffer.from(blob, 'base64');
  } else {
    throw new McpError('protocol', `${what}: the contents are neither text nor blob`, {
      delivery: 'delivered',
    });
  }
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (digest !== file.digest)
    throw rejected('digest', file.uri, `${what}: its SHA-256 is not the manifest's digest`);
  return bytes;
}

function sizeError(file: SkillFile, what: string): McpError {
  return rejected('size', file.uri, `${what}: its size is not the manifest's ${file.size} bytes`);
}
