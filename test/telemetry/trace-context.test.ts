/**
 * Trace context (SEP-414) with the OpenTelemetry SDK set up in this process: a client span per request, its
 * `traceparent` (and `tracestate`, `baggage`) in the request's `_meta`, read back by a server on the official
 * SDK v2 over stdio and Streamable HTTP at both revisions. The first tests run before anything is registered:
 * the message a request sends is the same with OpenTelemetry set up and no span active.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { context, createTraceState, propagation, ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { type Client, connect } from '../../src/index.js';
import { type FixtureTarget, fixtureTarget } from '../client/http-servers.js';
import { scriptedPair } from '../helpers/memory-server.js';

const FIXTURE = 'test/fixtures/sdk-v2-server.mjs';
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
const exporter = new InMemorySpanExporter();

/** The JSON of the `tools/call` message one fresh connection sends, run inside `around`. */
async function sentCall(revision: (typeof REVISIONS)[number], around = (f: () => Promise<void>) => f()) {
  const { connection, server } = scriptedPair({
    onRequest: (request, s) => s.reply(request.id, { content: [] }),
  });
  const client = await connect({ protocolVersion: revision }, { connection });
  await around(async () => void (await client.callTool('echo', { text: 'hi' })));
  await client.close();
  return JSON.stringify(server.sent('tools/call')[0]);
}

/** Runs `fn` inside an active span `parent` (with a trace state, and `baggage` when given). */
function inParent<T>(fn: (parent: Span) => Promise<T>, baggage?: Record<string, string>): Promise<T> {
  const remote = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: 1,
    isRemote: true,
    traceState: createTraceState('vendor=opaque'),
  });
  const withBaggage = baggage
    ? propagation.setBaggage(
        remote,
        propagation.createBaggage(
          Object.fromEntries(Object.entries(baggage).map(([k, v]) => [k, { value: v }])),
        ),
      )
    : remote;
  return context.with(withBaggage, () =>
    trace.getTracer('test').startActiveSpan('parent', async (parent) => {
      try {
        return await fn(parent);
      } finally {
        parent.end();
      }
    }),
  );
}

function clientSpans(): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((s) => s.name !== 'parent');
}

describe('without a span, a request is sent as it is without OpenTelemetry', () => {
  const plain = new Map<string, string>();
  before(async () => {
    for (const revision of REVISIONS) plain.set(revision, await sentCall(revision));
    // Set up as an application would; from here on a span may be active.
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.disable(); // no propagator: autos-mcp writes the W3C forms itself
  });

  for (const revision of REVISIONS) {
    it(`${revision}: the same message with a context manager and no active span; no span recorded`, async () => {
      exporter.reset();
      assert.equal(await sentCall(revision), plain.get(revision));
      assert.deepEqual(exporter.getFinishedSpans(), []);
    });

    it(`${revision}: in a span, the same message plus _meta.traceparent`, async () => {
      const traced = JSON.parse(await inParent(() => sentCall(revision))) as {
        params: { _meta: Record<string, unknown> };
      };
      const meta = traced.params._meta;
      assert.match(String(meta['traceparent']), /^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
      assert.equal(meta['tracestate'], 'vendor=opaque');
      delete meta['traceparent'];
      delete meta['tracestate'];
      if (Object.keys(meta).length === 0) delete (traced.params as { _meta?: unknown })._meta;
      assert.equal(JSON.stringify(traced), plain.get(revision));
    });
  }
});

for (const transport of ['stdio', 'http'] as const) {
  describe(`trace context over ${transport}, on the official SDK v2 server`, () => {
    let target: FixtureTarget;
    before(async () => {
      target = await fixtureTarget(FIXTURE, transport);
    });
    after(() => target.stop());

    for (const revision of REVISIONS) {
      describe(revision, () => {
        let client: Client;
        before(async () => {
          client = await connect({ ...target.config, protocolVersion: revision });
        });
        after(async () => {
          await client.close();
        });

        it('the server reads the client span in _meta; the span is a child of the active one', async () => {
          exporter.reset();
          const { result, parent } = await inParent(
            async (parent) => ({ result: await client.callTool('meta', { secret: 'hunter2-arg' }), parent }),
            { tenant: 'a b', plan: 'pro' },
          );
          // Over 2026 HTTP the call may list the tools first (for their `x-mcp-header` parameters): a span too.
          const spans = clientSpans();
          const span = spans.find((s) => s.name === 'tools/call');
          assert.ok(span, 'a tools/call span');
          assert.deepEqual(
            spans.map((s) => s.name).filter((n) => n !== 'tools/call' && n !== 'tools/list'),
            [],
          );
          const got = (result.structuredContent as { meta: Record<string, unknown> }).meta;
          const { traceId, spanId } = span.spanContext();
          assert.equal(got['traceparent'], `00-${traceId}-${spanId}-01`);
          assert.equal(got['tracestate'], 'vendor=opaque');
          assert.equal(got['baggage'], 'tenant=a%20b,plan=pro');
          assert.equal(span.parentSpanContext?.spanId, parent.spanContext().spanId);
          assert.equal(span.name, 'tools/call');
          assert.equal(span.kind, 2); // SpanKind.CLIENT
          assert.equal(span.attributes['mcp.method.name'], 'tools/call');
          assert.equal(span.attributes['mcp.protocol.version'], revision);
          assert.equal(span.attributes['gen_ai.tool.name'], 'meta');
          assert.equal(span.attributes['autos_mcp.target'], client.target);
          if (transport === 'http') assert.equal(span.attributes['server.address'], '127.0.0.1');
          assert.equal(span.status.code, 0);
          // Never an argument or a result.
          const recorded = JSON.stringify([span.attributes, span.events, span.status]);
          assert.ok(!recorded.includes('hunter2-arg'), recorded);
          assert.ok(!recorded.includes('traceparent'), recorded);
        });

        it('a failed request ends its span with the error kind; an isError result says tool_error', async () => {
          exporter.reset();
          await inParent(async () => {
            await assert.rejects(client.request('no/such-method', {}), { kind: 'rpc' });
            const failed = await client.callTool('fail', {});
            assert.equal(failed.isError, true);
          });
          const [rpc, tool] = clientSpans().filter((s) => s.name !== 'tools/list');
          assert.equal(rpc?.name, 'no/such-method');
          assert.equal(rpc?.attributes['error.type'], 'rpc');
          assert.equal(rpc?.attributes['rpc.jsonrpc.error_code'], -32601);
          assert.equal(rpc?.status.code, 2);
          assert.equal(tool?.attributes['error.type'], 'tool_error');
          assert.equal(tool?.status.code, 2);
        });

        it('outside a span: nothing in _meta, no span', async () => {
          exporter.reset();
          const result = await client.callTool('meta', {});
          const got = (result.structuredContent as { meta: Record<string, unknown> }).meta;
          assert.equal(got['traceparent'], undefined);
          assert.equal(got['baggage'], undefined);
          assert.deepEqual(exporter.getFinishedSpans(), []);
        });
      });
    }
  });
}
