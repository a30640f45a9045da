/** The demo tool `typed`: its arguments back as one line of JSON, to see the types they arrived with. */
import type { DemoTool } from './tool.js';

export const typed: DemoTool = {
  definition: {
    name: 'typed',
    description: 'Returns its arguments as one line of JSON, to see the types they arrived with.',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'An id that stays a string, such as 1712345.000100.' },
        count: { type: 'integer', description: 'A whole number.' },
        ratio: { type: 'number', description: 'Any number.' },
        dryRun: { type: 'boolean', description: 'true or false.' },
        mode: { type: 'string', enum: ['fast', 'safe'], description: 'fast or safe.' },
        tags: { type: 'array', items: { type: 'string' }, description: 'A list of strings.' },
        options: {
          type: 'object',
          properties: { depth: { type: 'integer' } },
          description: 'An object, such as {"depth":2}.',
        },
      },
      required: ['id'],
      additionalProperties: false,
    },
  },
  call(args) {
    return { content: [{ type: 'text', text: JSON.stringify(args) }] };
  },
};
