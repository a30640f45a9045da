/**
 * The demo tool `big`: a result as large as asked, to try result budgets (`call --max-chars`). Its text is
 * `unit` repeated to `chars` characters (a unit is never split), in `blocks` text blocks; with `structured`
 * it also returns `structuredContent: { text }` and its text block is that value's JSON, as the spec asks
 * of a tool with structured content (S25+26/server/tools).
 */
import { type DemoTool, integerArg, ToolInputError } from './tool.js';

/** Most characters `big` returns: 48 Mi (a result of that size needs a larger `maxMessageBytes`). */
const MAX_CHARS = 48 * 1024 * 1024;

export const big: DemoTool = {
  definition: {
    name: 'big',
    description: 'Returns a large text result (to try result budgets).',
    inputSchema: {
      type: 'object',
      properties: {
        chars: { type: 'integer', description: 'How many characters (default 100000).' },
        unit: { type: 'string', description: 'The text repeated (default "x").' },
        blocks: { type: 'integer', description: 'How many text blocks (default 1).' },
        structured: { type: 'boolean', description: 'Also return it as structuredContent.' },
      },
    },
  },
  call(args) {
    const chars = integerArg(args, 'chars', 100_000, 0, MAX_CHARS);
    const blocks = integerArg(args, 'blocks', 1, 1, 100);
    const unit = args['unit'] ?? 'x';
    if (typeof unit !== 'string' || unit === '' || unit.length > 1024)
      throw new ToolInputError('unit must be a string of 1 to 1024 characters');
    const text = unit.repeat(Math.ceil(chars / unit.length / blocks));
    if (args['structured'] === true)
      return { content: [{ type: 'text', text: JSON.stringify({ text }) }], structuredContent: { text } };
    return { content: Array.from({ length: blocks }, () => ({ type: 'text', text })) };
  },
};
