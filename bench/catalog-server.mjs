// A stdio MCP server with `argv[2]` synthetic tools (default 1000) for the catalog's search benchmark: names
// and descriptions drawn deterministically (seed `argv[3]`) from a tool vocabulary, 1-4 parameters each, as a
// real server's list reads (`list_repository_issues`, "List the open issues of a repository, newest first").
import { createInterface } from 'node:readline';

const count = Number(process.argv[2] ?? 1000);
let seed = Number(process.argv[3] ?? 1);
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (words) => words[Math.floor(random() * words.length)];
const VERBS = [
  'list',
  'get',
  'create',
  'update',
  'delete',
  'search',
  'read',
  'write',
  'move',
  'send',
  'query',
  'run',
];
const NOUNS = [
  'issue',
  'repository',
  'file',
  'directory',
  'message',
  'channel',
  'user',
  'team',
  'page',
  'database',
  'table',
  'row',
  'invoice',
  'customer',
  'order',
  'event',
  'calendar',
  'email',
  'ticket',
  'deployment',
  'log',
  'metric',
  'alert',
  'branch',
  'commit',
  'comment',
  'label',
  'document',
  'folder',
  'image',
  'secret',
  'job',
  'workflow',
];
const QUALIFIERS = ['open', 'recent', 'archived', 'shared', 'private', 'pending', 'failed', 'scheduled'];
const tools = Array.from({ length: count }, (_, i) => {
  const verb = pick(VERBS);
  const noun = pick(NOUNS);
  const other = pick(NOUNS);
  const params = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(NOUNS));
  return {
    name: `${verb}_${pick(QUALIFIERS)}_${noun}_${i}`,
    description: `${verb[0].toUpperCase()}${verb.slice(1)} the ${pick(QUALIFIERS)} ${noun}s of a ${other}, newest first. Returns at most 100 ${noun}s with their ${pick(NOUNS)} and ${pick(NOUNS)}.`,
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(
        params.map((p) => [`${p}_id`, { type: 'string', description: `The ${p}.` }]),
      ),
    },
  };
});
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === 'initialize')
    send({
      jsonrpc: '2.0',
      id: msg.id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'catalog-bench', version: '1' },
      },
    });
  else if (msg.method === 'tools/list') send({ jsonrpc: '2.0', id: msg.id, result: { tools } });
  else send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not here' } });
});
process.stdin.on('end', () => process.exit(0));
