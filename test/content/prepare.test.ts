/**
 * autos-mcp/content `prepare()`: binary content moved to private, content-addressed files (bytes, hashes,
 * names, modes, dedupe), everything else kept, the input never modified, invalid and oversized content
 * dropped with a problem (sizes checked before any decoding), hostile names and MIME types kept out of
 * paths, unsafe directories refused; and against real peers over stdio (server-everything, the demo server).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { CallToolResult, ContentBlock } from '../../src/client/index.js';
import { decodedLength, isStrictBase64 } from '../../src/content/base64.js';
import { prepare } from '../../src/content/index.js';
import { sanitizeMimeType } from '../../src/content/mime.js';
import { isMcpError, type StdioServerConfig, withClient } from '../../src/index.js';
import { demoServer, ROOT } from '../client/helpers.js';
import { must } from '../helpers/must.js';

const POSIX = process.platform !== 'win32';
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png body'),
]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5]);
const WAV = Buffer.from('RIFF\0\0\0\0WAVEfmt ');
const PDF = Buffer.from('%PDF-1.7\n%binary\xff\n', 'latin1');

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A scratch directory for one test, removed at the end. */
function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'autos-mcp-content-test-'));
  made.push(dir);
  return dir;
}

/** Remembers a directory `prepare` made so it is removed at the end. */
function track<T extends { dir: string | undefined }>(prepared: T): T {
  if (prepared.dir !== undefined) made.push(prepared.dir);
  return prepared;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const b64 = (bytes: Buffer): string => bytes.toString('base64');
const mode = (file: string): number => lstatSync(file).mode & 0o777;
const image = (bytes: Buffer, mimeType = 'image/png'): ContentBlock => ({
  type: 'image',
  data: b64(bytes),
  mimeType,
});
/**
 * A result of any blocks, malformed ones too: `prepare` must hold up against what `client.request` returns
 * raw, not only against blocks the client already checked.
 */
const result = (...content: unknown[]): CallToolResult => ({ content: content as ContentBlock[] });

/** Resolves with the McpError `promise` rejects with, failing when it resolves or throws something else. */
async function rejection(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isMcpError(error), `want an McpError, got ${String(error)}`);
    return error;
  }
  assert.fail('want a rejection');
}

describe('prepare: files', () => {
  test('image, jpeg, audio and a resource blob are written with their bytes, hash, name and modes', async () => {
    const input = result(
      { type: 'text', text: 'here' },
      image(PNG),
      image(JPEG, 'image/jpeg'),
      { type: 'audio', data: b64(WAV), mimeType: 'audio/wav' },
      {
        type: 'resource',
        resource: { uri: 'file:///report.pdf', mimeType: 'application/pdf', blob: b64(PDF) },
      },
    );
    const prepared = track(await prepare(input));
    const dir = must(prepared.dir, 'a dir');
    assert.equal(path.dirname(dir), os.tmpdir());
    assert.match(path.basename(dir), /^autos-mcp-content-.+$/);
    if (POSIX) assert.equal(mode(dir), 0o700);
    assert.deepEqual(prepared.problems, []);
    assert.deepEqual(prepared.content[0], { type: 'text', text: 'here' });

    const cases = [
      [1, 'image', PNG, 'image/png', 'png'],
      [2, 'image', JPEG, 'image/jpeg', 'jpg'],
      [3, 'audio', WAV, 'audio/wav', 'wav'],
      [4, 'resource', PDF, 'application/pdf', 'pdf'],
    ] as const;
    for (const [index, type, bytes, mimeType, ext] of cases) {
      const hash = sha256(bytes);
      const file = path.join(dir, `${hash.slice(0, 32)}.${ext}`);
      const want: Record<string, unknown> = { type, path: file, mimeType, bytes: bytes.length, sha256: hash };
      if (type === 'resource') want['uri'] = 'file:///report.pdf';
      assert.deepEqual(prepared.content[index], want);
      assert.deepEqual(readFileSync(file), bytes);
      if (POSIX) assert.equal(mode(file), 0o600);
    }
    assert.deepEqual(
      prepared.files,
      cases.map(([index]) => {
        const {
          type: _type,
          uri: _uri,
          ...file
        } = must(prepared.content[index], 'a block') as Record<string, unknown>;
        return file;
      }),
    );
    assert.equal(readdirSync(dir).length, 4, 'no temporary files left');
  });

  test('the same bytes twice make one file; again into the same dir, the file is reused', async () => {
    const dir = scratch();
    const first = await prepare(result(image(PNG), image(PNG), image(PNG, 'image/webp')), { dir });
    assert.equal(first.files.length, 2, 'one per (bytes, type)');
    assert.equal(first.content[0]?.['path'], first.content[1]?.['path']);
    assert.notEqual(first.content[0]?.['path'], first.content[2]?.['path']);
    const file = String(first.content[0]?.['path']);
    const inode = lstatSync(file).ino;
    const second = await prepare(result(image(PNG)), { dir });
    assert.equal(second.content[0]?.['path'], file);
    assert.equal(lstatSync(file).ino, inode, 'not written again');
    assert.deepEqual(
      readdirSync(dir).sort(),
      readdirSync(dir)
        .filter((n) => !n.startsWith('.'))
        .sort(),
    );
  });

  test('a planted symlink at the file name is replaced, its target untouched', { skip: !POSIX }, async () => {
    const dir = scratch();
    const victim = path.join(scratch(), 'victim');
    writeFileSync(victim, 'keep');
    const name = `${sha256(PNG).slice(0, 32)}.png`;
    symlinkSync(victim, path.join(dir, name));
    const prepared = await prepare(result(image(PNG)), { dir });
    assert.equal(prepared.content[0]?.['path'], path.join(dir, name));
    assert.ok(lstatSync(path.join(dir, name)).isFile());
    assert.deepEqual(readFileSync(path.join(dir, name)), PNG);
    assert.equal(readFileSync(victim, 'utf8'), 'keep');
  });

  test('nothing to write: no directory is made; a given dir is still checked and reported', async () => {
    const prepared = await prepare(result({ type: 'text', text: 'only text' }));
    assert.equal(prepared.dir, undefined);
    assert.deepEqual(prepared.files, []);
    const dir = scratch();
    assert.equal((await prepare(result(), { dir })).dir, dir);
  });

  test('a failed write throws config and removes what the call wrote', async () => {
    const dir = scratch();
    // A directory squatting on the second file's name makes its rename fail.
    mkdirSync(path.join(dir, `${sha256(JPEG).slice(0, 32)}.jpg`));
    const error = await rejection(prepare(result(image(PNG), image(JPEG, 'image/jpeg')), { dir }));
    assert.equal(error.kind, 'config');
    assert.ok(!error.message.includes(b64(JPEG)), 'no content in the message');
    assert.deepEqual(readdirSync(dir), [`${sha256(JPEG).slice(0, 32)}.jpg`]);
  });
});

describe('prepare: what is kept', () => {
  test('text, text resources, links and unknown blocks are the same objects; structuredContent too', async () => {
    const text = { type: 'text', text: 'hello', annotations: { audience: ['user'] } };
    const textResource = {
      type: 'resource',
      resource: { uri: 'mem://a', mimeType: 'text/plain', text: 'abc' },
    };
    const link = { type: 'resource_link', uri: 'file:///x', name: 'x' };
    const future = { type: 'hologram', data: b64(PNG) };
    const structuredContent = { rows: [1, 2, 3] };
    const input: CallToolResult = {
      content: [text, textResource, link, future] as ContentBlock[],
      structuredContent,
      isError: true,
      _meta: { trace: 'kept' },
    };
    const prepared = await prepare(input);
    assert.equal(prepared.content[0], text);
    assert.equal(prepared.content[1], textResource);
    assert.equal(prepared.content[2], link);
    assert.equal(prepared.content[3], future);
    assert.equal(prepared.structuredContent, structuredContent);
    assert.equal(prepared.isError, true);
    assert.deepEqual(prepared._meta, { trace: 'kept' });
    assert.deepEqual(prepared.problems, []);
  });

  test('a deep-frozen input is never modified', async () => {
    const input = deepFreeze({
      content: [
        { type: 'text', text: 't' },
        image(PNG),
        { type: 'image', data: 'not base64!', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'mem://b', mimeType: 'application/pdf', blob: b64(PDF) } },
        { type: 'audio', data: 'A'.repeat(4000), mimeType: 'audio/wav' },
      ],
      structuredContent: { nested: { deep: [1] } },
      isError: false,
    } satisfies CallToolResult);
    const before = structuredClone(input);
    const prepared = track(await prepare(input, { maxFileBytes: 1000 }));
    assert.deepEqual(input, before);
    assert.equal(prepared.files.length, 2);
    assert.equal(prepared.problems.length, 2);
  });

  test('content at or under maxInlineBytes stays inline, unchanged; larger content is written', async () => {
    const small = image(Buffer.alloc(10, 1));
    const exact = image(Buffer.alloc(16, 2));
    const large = image(Buffer.alloc(17, 3));
    const badSmall = { type: 'image', data: 'AA=A', mimeType: 'image/png' };
    const prepared = track(await prepare(result(small, exact, large, badSmall), { maxInlineBytes: 16 }));
    assert.equal(prepared.content[0], small);
    assert.equal(prepared.content[1], exact);
    assert.equal(prepared.content[2]?.['bytes'], 17);
    assert.equal(prepared.files.length, 1);
    assert.deepEqual(prepared.content[3], {
      type: 'text',
      text: '[autos-mcp: image content dropped: invalid base64]',
    });
  });
});

describe('prepare: blocks the client could not type', () => {
  test('an image wrapped as UnknownContent (no mimeType) is still moved to a file; an unknown type is kept', async () => {
    const wrapped = {
      type: 'unknown',
      block: { type: 'image', data: b64(PNG) },
      reason: 'image block: mimeType is not a string',
    };
    const future = {
      type: 'unknown',
      block: { type: 'hologram', data: b64(PNG) },
      reason: 'its type is not…',
    };
    const prepared = track(await prepare(result(wrapped, future)));
    assert.equal(prepared.content[0]?.type, 'image');
    assert.equal(prepared.content[0]?.['mimeType'], 'application/octet-stream');
    assert.equal(prepared.content[0]?.['sha256'], sha256(PNG));
    assert.equal(prepared.content[1], future);
    assert.equal(JSON.stringify(prepared.content[0]).includes(b64(PNG)), false, 'no base64 left inline');
  });
});

describe('prepare: invalid and oversized content', () => {
  test('invalid base64 is dropped: a text block says so and a problem lists it', async () => {
    const bad = [
      'not base64!',
      '    ',
      'AAAA AAAA',
      'AAAA\nAAAA',
      'AAAAA',
      'AA=A',
      'AAAA====',
      'AA-_',
      'data:image/png;base64,AAAA',
      'AB==',
      'AAB',
    ];
    const content: unknown[] = bad.map((data) => ({ type: 'image', data, mimeType: 'image/png' }));
    content.push({ type: 'audio', mimeType: 'audio/wav' });
    content.push({ type: 'resource', resource: { uri: 'mem://c', blob: 'é' } });
    const prepared = await prepare(result(...content));
    assert.equal(prepared.dir, undefined, 'nothing written');
    assert.deepEqual(
      prepared.content.slice(0, bad.length),
      bad.map(() => ({
        type: 'text',
        text: '[autos-mcp: image content dropped: invalid base64]',
      })),
    );
    assert.deepEqual(prepared.content[bad.length], {
      type: 'text',
      text: '[autos-mcp: audio content dropped: no base64 data]',
    });
    assert.deepEqual(
      prepared.problems.map((p) => [p.index, p.type, p.reason]),
      [
        ...bad.map((_, i) => [i, 'image', 'invalid_base64']),
        [bad.length, 'audio', 'invalid_base64'],
        [bad.length + 1, 'resource', 'invalid_base64'],
      ],
    );
  });

  test('strict base64: padded and unpadded canonical forms pass, sizes are read from the length', () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 100].map((n) => Buffer.alloc(n, 0xab))) {
      const padded = b64(bytes);
      const unpadded = padded.replace(/=+$/, '');
      assert.ok(isStrictBase64(padded), padded);
      assert.ok(isStrictBase64(unpadded), unpadded);
      assert.equal(decodedLength(padded), bytes.length);
      assert.equal(decodedLength(unpadded), bytes.length);
    }
    assert.ok(isStrictBase64('+/+/'));
  });

  test('a block over maxFileBytes is dropped before any scan or decode (a huge string of As)', async () => {
    // 90 M characters decode to more than the 64 MiB default; the `!` at the end would make it invalid,
    // so `too_large` proves the string was judged by its length alone.
    const huge = `${'A'.repeat(90_000_000)}!`;
    const started = performance.now();
    const prepared = await prepare(result({ type: 'image', data: huge, mimeType: 'image/png' }));
    assert.ok(performance.now() - started < 1000, 'no work proportional to the size');
    assert.equal(prepared.dir, undefined);
    assert.equal(must(prepared.problems[0], 'a problem').reason, 'too_large');
    assert.match(
      String(prepared.content[0]?.['text']),
      /^\[autos-mcp: image content dropped: \d+ bytes is over maxFileBytes \(67108864\)\]$/,
    );
    const small = await prepare(result(image(Buffer.alloc(11))), { maxFileBytes: 10 });
    assert.equal(must(small.problems[0], 'a problem').reason, 'too_large');
  });

  test('blocks past maxTotalBytes are dropped, checked before decoding; earlier ones are kept', async () => {
    const a = image(Buffer.alloc(600, 1));
    const b = { type: 'audio', data: `${'A'.repeat(800)}!`, mimeType: 'audio/ogg' };
    const c = image(Buffer.alloc(400, 2));
    const d = image(Buffer.alloc(1, 3));
    const prepared = track(await prepare(result(a, b, c, d), { maxTotalBytes: 1000 }));
    assert.equal(prepared.content[0]?.['bytes'], 600);
    assert.equal(prepared.content[2]?.['bytes'], 400);
    assert.equal(prepared.content[3]?.['type'], 'text', 'exactly at the limit, then one more');
    assert.deepEqual(
      prepared.problems.map((p) => [p.index, p.reason]),
      [
        [1, 'total_too_large'],
        [3, 'total_too_large'],
      ],
    );
    assert.equal(prepared.files.length, 2);
  });
});

describe('prepare: hostile names and directories', () => {
  test('URIs, names and MIME types never reach a path; MIME types are sanitized', async () => {
    const dir = scratch();
    const prepared = await prepare(
      result(
        {
          type: 'resource',
          resource: {
            uri: '../../etc/passwd',
            name: '../../evil.sh',
            mimeType: 'text/plain/../../x',
            blob: b64(PDF),
          },
          name: '/etc/shadow',
          filename: '../../x',
        },
        image(PNG, `image/png\n\u0000${'x'.repeat(10_000)}`),
        image(JPEG, 'IMAGE/JPEG; name="../../run.sh"'),
        image(WAV, 'x'.repeat(101) + '/y'),
        image(Buffer.from('svg'), 'image/svg+xml'),
        image(Buffer.from('?'), 'application/x-sh'),
      ),
      { dir },
    );
    assert.deepEqual(prepared.problems, []);
    const types = prepared.content.map((block) => block['mimeType']);
    assert.deepEqual(types, [
      'application/octet-stream',
      'application/octet-stream',
      'image/jpeg',
      'application/octet-stream',
      'image/svg+xml',
      'application/x-sh',
    ]);
    assert.equal(prepared.content[0]?.['uri'], '../../etc/passwd', 'the uri is kept as data');
    for (const block of prepared.content) {
      const file = String(block['path']);
      assert.equal(path.dirname(file), dir);
      assert.match(path.basename(file), /^[0-9a-f]{32}\.(bin|jpg|svg)$/);
    }
    assert.deepEqual(readdirSync(dir).sort(), prepared.files.map((f) => path.basename(f.path)).sort());
    assert.equal(sanitizeMimeType(`text/plain;${'p'.repeat(1_000_000)}`), 'text/plain');
    assert.equal(sanitizeMimeType('t'.repeat(1_000_000)), 'application/octet-stream');
    assert.equal(sanitizeMimeType(42), 'application/octet-stream');
  });

  test('a symlink dir, a group-writable dir, another file and bad options are refused as config', async () => {
    const real = scratch();
    const link = path.join(scratch(), 'link');
    symlinkSync(real, link);
    const content = result(image(PNG));
    assert.equal((await rejection(prepare(content, { dir: link }))).kind, 'config');
    assert.deepEqual(readdirSync(real), [], 'nothing written through the link');
    if (POSIX) {
      const open = scratch();
      const { chmodSync } = await import('node:fs');
      chmodSync(open, 0o770);
      assert.match((await rejection(prepare(content, { dir: open }))).message, /writable by group or others/);
    }
    const file = path.join(scratch(), 'file');
    writeFileSync(file, '');
    assert.match((await rejection(prepare(content, { dir: file }))).message, /not a directory/);
    for (const options of [
      { maxFileBytes: -1 },
      { maxTotalBytes: 1.5 },
      { maxInlineBytes: Number.NaN },
      { dir: '' },
      { maxFilesBytes: 10 },
    ]) {
      const error = await rejection(prepare(content, options as Parameters<typeof prepare>[1]));
      assert.equal(error.kind, 'config', JSON.stringify(options));
    }
    const notResult = { content: 'x' } as unknown as CallToolResult;
    assert.equal((await rejection(prepare(notResult))).kind, 'config');
  });

  test('a missing dir is created with mode 0700, its parents too', async () => {
    const dir = path.join(scratch(), 'a', 'b');
    const prepared = await prepare(result(image(PNG)), { dir });
    assert.equal(prepared.dir, dir);
    if (POSIX) assert.equal(mode(dir), 0o700);
    assert.equal(readdirSync(dir).length, 1);
  });
});

describe('prepare: real peers over stdio', () => {
  const everything: StdioServerConfig = {
    command: process.execPath,
    args: [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  };
  const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  test('server-everything: the tiny image becomes a real PNG file; a blob resource a file', async () => {
    await withClient(everything, async (client) => {
      const names = (await client.listTools()).map((t) => t.name);
      assert.ok(names.includes('get-tiny-image'), names.join(', '));
      const imageResult = (await client.callTool('get-tiny-image')) as CallToolResult;
      const prepared = track(await prepare(imageResult));
      const block = must(
        prepared.content.find((b) => b.type === 'image'),
        'an image block',
      );
      const file = String(block['path']);
      assert.equal(block['mimeType'], 'image/png');
      assert.ok(file.endsWith('.png'));
      const bytes = readFileSync(file);
      assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE);
      assert.equal(block['sha256'], sha256(bytes));
      assert.ok(!JSON.stringify(prepared.content).includes('iVBORw0KGgo'), 'no base64 left');

      const blobResult = (await client.callTool('get-resource-reference', {
        resourceType: 'Blob',
        resourceId: 1,
      })) as CallToolResult;
      const blob = track(await prepare(blobResult));
      const resource = must(
        blob.content.find((b) => b.type === 'resource'),
        'a resource block',
      );
      assert.match(String(resource['uri']), /^demo:\/\/resource\/dynamic\/blob\/1$/);
      assert.ok(String(resource['path']).endsWith('.txt'));
      assert.match(readFileSync(String(resource['path']), 'utf8'), /^Resource 1: This is a base64 blob/);
    });
  });

  test('the demo server: its image tool gives a PNG file', async () => {
    await withClient(demoServer(), async (client) => {
      const prepared = track(await prepare((await client.callTool('image')) as CallToolResult));
      const file = must(prepared.files[0], 'a file');
      assert.deepEqual(readFileSync(file.path).subarray(0, 8), PNG_SIGNATURE);
    });
  });
});
