/** The demo tool `calls`: how many `tools/call` requests the server got before this one (to show what was sent). */
import type { DemoTool } from './tool.js';

export const calls: DemoTool = {
  definition: {
    name: 'calls',
    description: 'Returns how many tool calls this server received before this one.',
    inputSchema: { type: 'object', properties: {} },
    outputSchema: { type: 'object', properties: { calls: { type: 'integer' } }, required: ['calls'] },
  },
  call(_args, call) {
    return {
      content: [{ type: 'text', text: String(call.callsBefore) }],
      structuredContent: { calls: call.callsBefore },
    };
  },
};
