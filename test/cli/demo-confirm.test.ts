// The shipped demo server's `confirm` tool: an input_required elicitation at 2026-07-28 (MRTR), answered by the
// client's onElicitation handler; a tool error where it cannot ask (no handler declared, or a 2025 session).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoServerCommand } from '../../src/cli/demo-server.js';
import { connect, isInputRequired } from '../../src/index.js';

const MODERN = { ...demoServerCommand(), protocolVersion: '2026-07-28' } as const;

function textOf(result: unknown): string | undefined {
  const first = (result as { content?: Array<{ type: string; text?: unknown }> }).content?.[0];
  return first?.type === 'text' && typeof first.text === 'string' ? first.text : undefined;
}

describe('demo server confirm', () => {
  test('2026: asks once through input_required; the handler answers and the call completes', async () => {
    const asked: string[] = [];
    const client = await connect(MODERN, {
      onElicitation: async (request) => {
        asked.push(request.message);
        return { action: 'accept', content: { ok: true } };
      },
    });
    try {
      const result = await client.callTool('confirm', { text: 'delete the draft' });
      assert.equal(isInputRequired(result), false);
      assert.equal(textOf(result), 'confirmed: delete the draft');
      assert.deepEqual(asked, ['Confirm: delete the draft?']);
    } finally {
      await client.close();
    }
  });

  test('2026: a decline comes back as not confirmed', async () => {
    const client = await connect(MODERN, { onElicitation: async () => ({ action: 'decline' }) });
    try {
      assert.equal(textOf(await client.callTool('confirm', { text: 'x' })), 'not confirmed (decline): x');
    } finally {
      await client.close();
    }
  });

  test('2026 without a handler: the server does not ask, it says why in a tool error', async () => {
    const client = await connect(MODERN);
    try {
      const result = await client.callTool('confirm', { text: 'x' });
      assert.equal(isInputRequired(result), false);
      assert.equal((result as { isError?: boolean }).isError, true);
      assert.match(textOf(result) ?? '', /needs a client that answers elicitation/);
    } finally {
      await client.close();
    }
  });

  test('2025: a tool error naming the revision it needs', async () => {
    const client = await connect(demoServerCommand(), { onElicitation: async () => ({ action: 'accept' }) });
    try {
      const result = await client.callTool('confirm', { text: 'x' });
      assert.equal((result as { isError?: boolean }).isError, true);
      assert.match(textOf(result) ?? '', /needs protocol 2026-07-28/);
    } finally {
      await client.close();
    }
  });
});
