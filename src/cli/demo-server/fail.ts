/** The demo tool `fail`: always a tool error (`isError: true`), never a protocol error. */
import type { DemoTool } from './tool.js';

export const fail: DemoTool = {
  definition: {
    name: 'fail',
    description: 'Always fails with a tool error (isError: true), never a protocol error.',
    inputSchema: {
      type: 'object',
      properties: { reason: { type: 'string', description: 'The error text to return.' } },
    },
  },
  call(args) {
    const reason = args['reason'];
    return {
      content: [{ type: 'text', text: typeof reason === 'string' ? reason : 'failed on purpose' }],
      isError: true,
    };
  },
};
