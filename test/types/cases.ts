/**
 * Type-level cases, checked by `tsc` (the project's typecheck and test/types/types.test.ts): every line
 * compiles, and every `@ts-expect-error` line must fail to compile (tsc reports an unused directive
 * otherwise), so a type that gets looser or stricter than designed breaks the check. Nothing here runs.
 */

import { prepare } from '../../src/content/index.js';
import {
  type CallToolResult,
  type ContentBlock,
  callToolOnce,
  connect,
  type ImageContent,
  isErrorKind,
  isInputRequired,
  type McpClient,
  type ServerConfig,
  session,
  structuredOf,
  type TextContent,
  type ToolCallOutcome,
  type ToolsChangedEvent,
  textOf,
  withClient,
} from '../../src/index.js';
import { type ConfiguredServer, resolveServer } from '../../src/servers/index.js';

declare function expectType<T>(value: T): void;
declare const someChoice: '2025-11-25' | '2026-07-28' | 'auto';

export async function results(): Promise<void> {
  // No protocolVersion, or 2025-11-25: no input_required can happen, so the result is complete.
  const plain = await connect({ command: 'npx', args: ['autos-mcp', 'demo-server'] });
  const result = await plain.callTool('echo', { text: 'hi' });
  expectType<CallToolResult>(result);
  expectType<ContentBlock[]>(result.content);
  const pinned = await connect({ command: 'x', protocolVersion: '2025-11-25' });
  expectType<ContentBlock[]>((await pinned.callTool('echo')).content);
  expectType<ContentBlock[]>((await callToolOnce({ command: 'x' }, 'echo', { text: 'hi' })).content);
  expectType<ContentBlock[]>(
    await withClient({ command: 'x' }, async (c) => (await c.callTool('echo')).content),
  );
  expectType<ContentBlock[]>((await session({ command: 'x' }).callTool('echo')).content);
  expectType<ContentBlock[]>(
    (await (await connect({ url: 'https://mcp.example/mcp' })).callTool('echo')).content,
  );

  // 2026-07-28, auto, or a protocolVersion the compiler cannot pin: the union, and content may be absent.
  const modern = await connect({ command: 'x', protocolVersion: '2026-07-28' });
  const outcome = await modern.callTool('echo');
  expectType<ToolCallOutcome>(outcome);
  // @ts-expect-error content is possibly undefined on the union
  outcome.content.length;
  if (!isInputRequired(outcome)) expectType<ContentBlock[]>(outcome.content);
  // @ts-expect-error auto may negotiate 2026
  expectType<CallToolResult>(await callToolOnce({ command: 'x', protocolVersion: 'auto' }, 'echo'));
  // @ts-expect-error a non-literal choice may be 2026
  expectType<CallToolResult>(await callToolOnce({ command: 'x', protocolVersion: someChoice }, 'echo'));
  const typed: ServerConfig = { command: 'x' };
  // @ts-expect-error a config typed ServerConfig may say 2026-07-28
  expectType<CallToolResult>(await callToolOnce(typed, 'echo'));
  const inferred = { command: 'x' };
  expectType<CallToolResult>(await callToolOnce(inferred, 'echo'));
  // @ts-expect-error a session with a local override name may be switched to 2026 by the override
  expectType<CallToolResult>(await session({ command: 'x' }, 'my-server').callTool('echo'));
  await withClient({ command: 'x', protocolVersion: 'auto' }, async (c) => {
    // @ts-expect-error the union inside withClient too
    expectType<CallToolResult>(await c.callTool('echo'));
  });

  // The config is still checked for typos, and the options too.
  // @ts-expect-error unknown key
  await connect({ command: 'x', comand: 'y' });
  // @ts-expect-error not a protocol version
  await connect({ command: 'x', protocolVersion: '2024-11-05' });
  await plain.callTool('echo', {}, { validateArguments: true, timeoutMs: 100 });
  // @ts-expect-error validateArguments is a boolean
  await plain.callTool('echo', {}, { validateArguments: 'yes' });
}

export async function configured(server: ConfiguredServer): Promise<void> {
  // A configured server is typed by the revision its entry asks for: a 2025-11-25 entry's config gives
  // a complete result, the others the union.
  // @ts-expect-error the entry may ask for 2026-07-28 or auto
  expectType<CallToolResult>(await callToolOnce(resolveServer(server), 'echo'));
  if (server.protocolVersion === '2025-11-25') {
    expectType<ContentBlock[]>((await callToolOnce(resolveServer(server), 'echo')).content);
    expectType<ContentBlock[]>((await (await connect(resolveServer(server))).callTool('echo')).content);
  } else {
    expectType<'2026-07-28' | 'auto'>(server.protocolVersion);
    expectType<ToolCallOutcome>(await callToolOnce(resolveServer(server), 'echo'));
  }
}

export function content(result: CallToolResult): void {
  for (const block of result.content) {
    if (block.type === 'image') {
      expectType<ImageContent>(block);
      Buffer.from(block.data, 'base64');
      expectType<string>(block.mimeType);
    }
    switch (block.type) {
      case 'text':
        expectType<string>(block.text);
        break;
      case 'audio':
        expectType<string>(block.data);
        break;
      case 'image':
        // @ts-expect-error an image has no text
        block.text.length;
        break;
      case 'resource_link':
        expectType<string>(block.uri);
        expectType<string | undefined>(block.icons?.[0]?.src);
        break;
      case 'resource':
        if ('text' in block.resource) expectType<string>(block.resource.text);
        else expectType<string>(block.resource.blob);
        break;
      case 'unknown':
        expectType<string>(block.reason);
        expectType<unknown>(block.block);
        break;
      default:
        // Every member handled: nothing is left.
        expectType<never>(block);
    }
    expectType<number | undefined>(block.type === 'text' ? block.annotations?.priority : undefined);
    // @ts-expect-error the type names a known member or 'unknown', nothing else
    if (block.type === 'video') void block;
  }
  const texts: TextContent[] = result.content.filter((block) => block.type === 'text');
  expectType<string | undefined>(texts[0]?.text);
  expectType<string>(textOf(result));
  expectType<{ rows: number[] } | undefined>(structuredOf<{ rows: number[] }>(result));
  // Blocks are data a test or a server-like helper can write without a cast.
  const made: CallToolResult = {
    content: [
      { type: 'text', text: 'x' },
      { type: 'image', data: '', mimeType: 'image/png' },
    ],
  };
  void made;
  // @ts-expect-error an image needs its data
  const broken: ContentBlock = { type: 'image', mimeType: 'image/png' };
  void broken;
}

export async function helpersNeedACompleteResult(outcome: ToolCallOutcome): Promise<void> {
  // @ts-expect-error an input_required result has no text: tell it apart first
  textOf(outcome);
  if (isInputRequired(outcome)) return;
  expectType<string>(textOf(outcome));
  const prepared = await prepare(outcome);
  expectType<string>(textOf(prepared));
  for (const block of prepared.content) {
    if (block.type === 'text') expectType<string>(block.text);
    // A moved image and an inline one share the type: the moved one has a string `path`.
    if (block.type === 'image') expectType<unknown>(block['path']);
  }
}

export function errors(error: unknown): void {
  if (isErrorKind(error, 'invalid_arguments'))
    expectType<'not_sent' | 'unknown' | 'delivered'>(error.delivery);
  // @ts-expect-error not a kind
  isErrorKind(error, 'invalid_argument');
}

export async function clientAndSessionAreOneInterface(): Promise<void> {
  // A 2025-11-25 `Client` and `Session` are the same `McpClient`, with the same narrow outcome.
  const narrow: McpClient<CallToolResult>[] = [await connect({ command: 'x' }), session({ command: 'x' })];
  expectType<ContentBlock[]>((await must(narrow[0]).callTool('echo')).content);
  const any: McpClient[] = [await connect({ command: 'x', protocolVersion: 'auto' }), ...narrow];
  void any;
  // @ts-expect-error a config that may mean 2026-07-28 may give input_required: not a narrow McpClient
  const wide: McpClient<CallToolResult> = session({ command: 'x', protocolVersion: 'auto' });
  void wide;
}

export async function toolChanges(): Promise<void> {
  // Client and Session take the same listener and give back its remover; the reason is a closed set.
  const listener = (event: ToolsChangedEvent) => {
    expectType<'changed' | 'resumed' | 'ended' | 'unavailable'>(event.reason);
    expectType<string>(event.target);
  };
  const stops: Array<() => void> = [
    (await connect({ command: 'x' })).onToolsChanged(listener),
    session({ command: 'x' }).onToolsChanged(listener),
  ];
  void stops;
  // @ts-expect-error not a reason
  const odd: ToolsChangedEvent['reason'] = 'removed';
  void odd;
  await connect({ command: 'x' }, { onToolListChanged: listener });
}

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('missing');
  return value;
}
