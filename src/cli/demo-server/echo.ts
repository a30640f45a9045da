/** The demo tool `echo`: its text argument back, as text and as `structuredContent`. */
import { type DemoTool, ToolInputError } from './tool.js';

export const echo: DemoTool = {
  definition: {
    name: 'echo',
    description: 'Returns its text argument unchanged.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to return.' } },
      required: ['text'],
    },
    outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  call(args) {
    const text = args['text'];
    if (typeof text !== 'string') throw new ToolInputError('text must be a string');
    return { content: [{ type: 'text', text }], structuredContent: { text } };
  },
};
