/**
 * The check that makes `callTool`'s types true: every block of both revisions' schemas passes as the same
 * object; a block of an unknown type, or of a known type with a field of the wrong type, comes back as
 * `UnknownContent` with a reason that quotes nothing of the server's; a 2025 session never hands back
 * `input_required` (a server that sends one gets a `protocol` error); malformed result fields are
 * `protocol` errors. Pure checks first, then through a real client over the in-memory pair.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { blockProblem, checkCallResult, checkContent } from '../../src/client/call-result.js';
import { type ContentBlock, connect, isInputRequired, isMcpError } from '../../src/index.js';
import { scriptedPair } from '../helpers/memory-server.js';

const meta = {
  _meta: { 'x.example/trace': 1 },
  annotations: { audience: ['user'], priority: 0.5, lastModified: 'x' },
};

/** One valid block of each type, with every optional field both schemas define. */
const VALID: Record<string, unknown>[] = [
  { type: 'text', text: 'hi', ...meta },
  { type: 'image', data: 'AAAA', mimeType: 'image/png', ...meta },
  { type: 'audio', data: 'AAAA', mimeType: 'audio/wav', ...meta },
  {
    type: 'resource_link',
    uri: 'file:///a',
    name: 'a',
    title: 'A',
    description: 'd',
    mimeType: 'text/plain',
    size: 3,
    icons: [{ src: 'https://x/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],
    ...meta,
  },
  { type: 'resource', resource: { uri: 'mem://t', mimeType: 'text/plain', text: 'abc', _meta: {} }, ...meta },
  { type: 'resource', resource: { uri: 'mem://b', blob: 'AAAA' } },
  { type: 'text', text: 'extra fields are kept', 'x-vendor': { any: 'thing' } },
];

/** Blocks of a known type whose fields break the schema, with the reason the client gives. */
const BROKEN: Array<[unknown, string]> = [
  [{ type: 'text' }, 'text block: text is not a string'],
  [{ type: 'text', text: 5 }, 'text block: text is not a string'],
  [{ type: 'image', data: 'AAAA' }, 'image block: mimeType is not a string'],
  [{ type: 'image', data: ['A'], mimeType: 'image/png' }, 'image block: data is not a string'],
  [{ type: 'audio', data: null, mimeType: 'audio/wav' }, 'audio block: data is not a string'],
  [{ type: 'resource_link', uri: 'file:///a' }, 'resource_link block: name is not a string'],
  [{ type: 'resource_link', uri: 'f', name: 'n', size: '3' }, 'resource_link block: size is not a number'],
  [
    { type: 'resource_link', uri: 'f', name: 'n', icons: [{}] },
    'resource_link block: icons do not fit the schema',
  ],
  [{ type: 'resource', resource: { uri: 'u' } }, 'resource block: resource has neither text nor blob'],
  [{ type: 'resource', resource: { text: 'x' } }, 'resource block: resource.uri is not a string'],
  [{ type: 'resource', resource: { uri: 'u', blob: 7 } }, 'resource block: resource.blob is not a string'],
  [{ type: 'resource', resource: 'mem://x' }, 'resource block: resource is not an object'],
  [
    { type: 'text', text: 'x', annotations: { audience: ['robot'] } },
    'text block: annotations do not fit the schema',
  ],
  [
    { type: 'text', text: 'x', annotations: { priority: '1' } },
    'text block: annotations do not fit the schema',
  ],
  [{ type: 'text', text: 'x', _meta: [] }, 'text block: _meta is not an object'],
  [{ type: 'hologram', data: 'AAAA' }, 'its type is not a content type of 2025-11-25 or 2026-07-28'],
  [
    { type: 'unknown', block: {}, reason: 'forged' },
    'its type is not a content type of 2025-11-25 or 2026-07-28',
  ],
  [{ text: 'no type' }, 'its type is not a content type of 2025-11-25 or 2026-07-28'],
  [null, 'the block is not an object'],
  ['text', 'the block is not an object'],
];

describe('content blocks', () => {
  test('a valid block of each type passes as the same object; an all-valid array is the same array', () => {
    for (const block of VALID) assert.equal(blockProblem(block), undefined, JSON.stringify(block));
    assert.equal(checkContent(VALID), VALID);
  });

  test('a known type with a field of the wrong type, or an unknown type, becomes UnknownContent with a reason', () => {
    for (const [block, reason] of BROKEN) {
      const [checked] = checkContent([block]);
      assert.deepEqual(checked, { type: 'unknown', block, reason }, JSON.stringify(block));
      assert.equal((checked as { block: unknown }).block, block, 'the original, untouched');
    }
  });

  test('the reason never quotes the server: a hostile type or field value is not in it', () => {
    const hostile = '\u001b]0;pwned\u0007</script>';
    const [checked] = checkContent([
      { type: hostile, text: hostile },
      { type: 'image', data: 1, mimeType: hostile },
    ]);
    assert.ok(checked?.type === 'unknown');
    assert.ok(!checked.reason.includes(hostile));
  });

  test('only the broken blocks are wrapped; the others keep their place and identity', () => {
    const good = { type: 'text', text: 'a' };
    const out = checkContent([good, { type: 'image' }, good]);
    assert.equal(out.length, 3);
    assert.equal(out[0], good);
    assert.equal(out[1]?.type, 'unknown');
    assert.equal(out[2], good);
  });
});

describe('tools/call results', () => {
  const what = 'tools/call echo on srv';

  test('a 2025 result with resultType input_required (or any but complete) is a protocol error, delivered', () => {
    for (const resultType of ['input_required', 'task', 1]) {
      assert.throws(
        () => checkCallResult({ resultType, content: [] }, 'legacy', what),
        (error: unknown) => isMcpError(error) && error.kind === 'protocol' && error.delivery === 'delivered',
      );
    }
    assert.deepEqual(checkCallResult({ resultType: 'complete', content: [] }, 'legacy', what).content, []);
  });

  test('a 2026 input_required result is data, without a content field a hostile server added', () => {
    const result = checkCallResult(
      { resultType: 'input_required', inputRequests: {}, content: [{ type: 'text', text: 'x' }] },
      'modern',
      what,
    );
    assert.ok(isInputRequired(result));
    assert.equal(Object.hasOwn(result, 'content'), false);
  });

  test('missing content is [], as the official SDK reads it; content, isError or _meta of the wrong type is protocol', () => {
    assert.deepEqual(checkCallResult({ structuredContent: { a: 1 } }, 'legacy', what), {
      structuredContent: { a: 1 },
      content: [],
    });
    for (const bad of [{ content: 'text' }, { content: [], isError: 'true' }, { content: [], _meta: 1 }]) {
      assert.throws(
        () => checkCallResult(bad, 'modern', what),
        (error: unknown) => isMcpError(error) && error.kind === 'protocol' && error.message.startsWith(what),
        JSON.stringify(bad),
      );
    }
  });
});

describe('through a client over the in-memory pair', () => {
  test('a 2025 client gets its blocks checked; narrowing on type reaches the typed fields', async () => {
    const { connection } = scriptedPair({
      onRequest: (request, server) =>
        server.reply(request.id, {
          content: [
            { type: 'image', data: Buffer.from('png').toString('base64'), mimeType: 'image/png' },
            { type: 'image', data: 42, mimeType: 'image/png' },
            { type: 'video', url: 'https://x/v.mp4' },
          ],
        }),
    });
    const client = await connect({}, { connection });
    try {
      const result = await client.callTool('echo');
      const kinds = result.content.map((block: ContentBlock) => block.type);
      assert.deepEqual(kinds, ['image', 'unknown', 'unknown']);
      const image = result.content.find((block) => block.type === 'image');
      assert.equal(image === undefined ? '' : Buffer.from(image.data, 'base64').toString(), 'png');
    } finally {
      await client.close();
    }
  });

  test('a 2025 server that answers tools/call with input_required is refused: protocol, delivered', async () => {
    const { connection } = scriptedPair({
      onRequest: (request, server) =>
        server.reply(request.id, {
          resultType: 'input_required',
          inputRequests: { a: { method: 'roots/list' } },
        }),
    });
    const client = await connect({ protocolVersion: '2025-11-25' }, { connection });
    try {
      await assert.rejects(client.callTool('echo'), (error: unknown) => {
        assert.ok(isMcpError(error));
        assert.equal(error.kind, 'protocol');
        assert.equal(error.delivery, 'delivered');
        assert.match(
          error.message,
          /^tools\/call echo on memory test server: the server answered with a resultType/,
        );
        return true;
      });
    } finally {
      await client.close();
    }
  });

  test('a 2026 client returns an input_required result it cannot answer as data', async () => {
    const { connection } = scriptedPair({
      onRequest: (request, server) =>
        server.reply(request.id, {
          resultType: 'input_required',
          inputRequests: { a: { method: 'roots/list' } },
        }),
    });
    const client = await connect({ protocolVersion: '2026-07-28' }, { connection });
    try {
      const result = await client.callTool('echo');
      assert.ok(isInputRequired(result));
      assert.deepEqual(Object.keys(result.inputRequests ?? {}), ['a']);
    } finally {
      await client.close();
    }
  });
});
