/**
 * What a worker thread runs for each client operation of a request (`listTools`, `callTool`, the resource,
 * prompt and skill methods) on its one client. Every value resolved is plain data (it crosses threads).
 */
import type { CallOptions } from '../client/call-options.js';
import type { Client } from '../client/client.js';
import { McpError } from '../errors/index.js';
import type { Request } from './protocol.js';

export function perform(client: Client, request: Request, options: CallOptions): Promise<unknown> {
  switch (request.op) {
    case 'listTools':
      return client.listTools({ ...options, ...(request.cache ? { cache: true } : {}) });
    case 'callTool':
      return client.callTool(request.name ?? '', request.args ?? {}, options);
    case 'listResources':
      return client.listResources(options);
    case 'listResourceTemplates':
      return client.listResourceTemplates(options);
    case 'readResource':
      return client.readResource(request.uri ?? '', options);
    case 'listPrompts':
      return client.listPrompts(options);
    case 'getPrompt':
      return client.getPrompt(request.name ?? '', (request.args ?? {}) as Record<string, string>, options);
    case 'listSkills':
      return client.listSkills(options);
    case 'readSkill':
      return client.readSkill(request.uri ?? '', { ...options, ...(request.skill ?? { dir: '' }) });
    default:
      return Promise.reject(
        new McpError('config', `${String(request.op).slice(0, 40)} is not an operation of the worker`),
      );
  }
}
