/**
 * The demo tool `confirm`, by MRTR (S26/basic/patterns/mrtr): the first request gets `input_required` with
 * one form elicitation (only for a client that declared elicitation); the retry carries the answer under the
 * same key. Stateless: what is confirmed is the retry's own `text`. A 2025 session has no MRTR, and this demo
 * server sends no server-to-client requests, so there it is a tool error that says so.
 */
import { type DemoTool, ToolInputError } from './tool.js';
import { META_CLIENT_CAPABILITIES, META_VERSION, object } from './wire.js';

export const confirm: DemoTool = {
  definition: {
    name: 'confirm',
    description:
      'Asks the user to confirm `text` (2026-07-28: an input_required result with one elicitation) and returns what they answered.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'What to confirm.' } },
      required: ['text'],
    },
  },
  call(args, { params }) {
    const text = args['text'];
    if (typeof text !== 'string') throw new ToolInputError('text must be a string');
    const meta = object(params['_meta']);
    if (meta[META_VERSION] === undefined)
      return {
        content: [
          { type: 'text', text: 'confirm needs protocol 2026-07-28 (it asks through input_required)' },
        ],
        isError: true,
      };
    const answer = object(object(params['inputResponses'])['confirm']);
    if (answer['action'] === undefined) {
      const capabilities = object(meta[META_CLIENT_CAPABILITIES]);
      if (capabilities['elicitation'] === undefined)
        return {
          content: [{ type: 'text', text: 'confirm needs a client that answers elicitation' }],
          isError: true,
        };
      return {
        resultType: 'input_required',
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: `Confirm: ${text.slice(0, 200)}?`,
              requestedSchema: {
                type: 'object',
                properties: { ok: { type: 'boolean', title: 'Confirm' } },
                required: ['ok'],
              },
            },
          },
        },
      };
    }
    const ok = answer['action'] === 'accept' && object(answer['content'])['ok'] === true;
    const said = ok ? 'confirmed' : `not confirmed (${String(answer['action']).slice(0, 20)})`;
    return { content: [{ type: 'text', text: `${said}: ${text}` }], structuredContent: { confirmed: ok } };
  },
};
