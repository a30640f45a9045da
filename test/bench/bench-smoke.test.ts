// Smoke tests for the benchmark harness: the bench server and raw floor clients round-trip at both revisions
// over stdio and HTTP (JSON, SSE), and the pure pieces (stats, ratios, tables, SVG, targets, docs markers,
// install footprint counting) give the figures they should.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { raw } from '../../bench/clients/raw.js';
import type { Revision } from '../../bench/clients/types.js';
import { footprint } from '../../bench/groups/install.js';
import { cells, interleave } from '../../bench/groups/interleave.js';
import type { BenchReport, Row } from '../../bench/model.js';
import { END_MARKER, replaceGenerated, START_MARKER } from '../../bench/report/docs.js';
import { renderSvg } from '../../bench/report/svg.js';
import { renderSection } from '../../bench/report/table.js';
import { assessTargets } from '../../bench/report/targets.js';
import { median, quantile, rotate } from '../../bench/stats.js';
import { startHttpServer, stdioTarget } from '../../bench/targets.js';
import { must } from '../helpers/must.js';

type ToolResult = { content: { type: string; text: string }[]; resultType?: string };
const REVISIONS: Revision[] = ['2025-11-25', '2026-07-28'];

describe('bench server with the raw clients', () => {
  for (const revision of REVISIONS) {
    test(`stdio ${revision}: echo and blob round-trip, resultType only on 2026`, async () => {
      const conn = await raw.connect(stdioTarget(revision));
      try {
        const echo = (await conn.call('echo', { text: 'hi' })) as ToolResult;
        assert.deepEqual(echo.content, [{ type: 'text', text: 'hi' }]);
        assert.equal(echo.resultType, revision === '2026-07-28' ? 'complete' : undefined);
        const blob = (await conn.call('blob', { bytes: 300_000 })) as ToolResult;
        assert.equal(blob.content[0]?.text.length, 300_000);
      } finally {
        await conn.close();
      }
    });
  }

  for (const sse of [false, true]) {
    test(`HTTP ${sse ? 'SSE' : 'JSON'}: echo round-trips at both revisions`, async () => {
      const server = await startHttpServer(sse);
      try {
        for (const revision of REVISIONS) {
          const conn = await raw.connect(server.target(revision));
          const echo = (await conn.call('echo', { text: revision })) as ToolResult;
          assert.deepEqual(echo.content, [{ type: 'text', text: revision }]);
          await conn.close();
        }
      } finally {
        await server.stop();
      }
    });
  }
});

describe('statistics and ratios', () => {
  test('quantile is nearest-rank and median averages the middle pair', () => {
    assert.equal(quantile([5, 1, 4, 2, 3], 0.5), 3);
    assert.equal(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.99), 10);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.deepEqual(rotate(['a', 'b', 'c'], 4), ['b', 'c', 'a']);
  });

  test('interleave rotates the order each round and cells take the median of per-round ratios', async () => {
    const order: string[] = [];
    const samples = await interleave(['raw', 'sdk-v2', 'x'], 3, async (name, round) => {
      order.push(name);
      const base = must([1, 10, 2][round], `the base of round ${round}`); // rounds differ a lot; per-round ratios must cancel that
      return [name === 'raw' ? base : name === 'sdk-v2' ? base * 4 : base * 2];
    });
    assert.deepEqual(order.slice(0, 6), ['raw', 'sdk-v2', 'x', 'sdk-v2', 'x', 'raw']);
    const c = cells(samples, median);
    assert.equal(c['x']?.ratioVsRaw, 2);
    assert.equal(c['x']?.ratioVsSdkV2, 0.5);
    assert.equal(cells(samples, median, true)['x']?.ratioVsRaw, 0.5, 'inverted for rates');
  });
});

function fakeReport(rows: Row[]): BenchReport {
  return {
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1000,
    command: 'npm run bench',
    quick: true,
    machine: { os: 'linux', cpu: 'cpu', cores: 2, memoryGiB: 4, node: 'v20' },
    clients: ['raw', 'autos-mcp', 'sdk-v2'],
    sections: [{ id: 's', title: 'S', description: 'd', rows }],
    skipped: [],
  };
}

describe('reports', () => {
  const p50: Row = {
    label: 'stdio 2026-07-28 p50',
    unit: 'ms',
    lowerIsBetter: true,
    chart: true,
    cells: {
      raw: { value: 0.1 },
      'autos-mcp': { value: 0.12, ratioVsRaw: 1.2, ratioVsSdkV2: 0.25 },
      'sdk-v2': { value: 0.3, ratioVsRaw: 3 },
    },
  };

  test('a section renders as a markdown table with value and ratios per client', () => {
    const md = renderSection(must(fakeReport([p50]).sections[0], 'the report section'), [
      'raw',
      'autos-mcp',
      'sdk-v2',
      'absent',
    ]);
    const lines = md.split('\n');
    assert.ok(lines.includes('| measure | unit | raw | autos-mcp | sdk-v2 |'), md);
    assert.ok(
      lines.includes(
        '| stdio 2026-07-28 p50 | ms | 0.100 | 0.120 · 1.20× raw · 0.25× v2 | 0.300 · 3.00× raw |',
      ),
      md,
    );
  });

  test('the SVG chart is well-formed, escapes labels and draws one bar per non-raw client', () => {
    const svg = renderSvg(fakeReport([{ ...p50, label: 'a <b> & "c"' }]));
    const stack: string[] = [];
    const tags = [...svg.matchAll(/<(\/?)([a-zA-Z]+)((?:\s+[a-zA-Z0-9:-]+="[^"<]*")*)\s*(\/?)>/g)];
    assert.equal(tags.length, (svg.match(/</g) ?? []).length, 'every < opens a tag with quoted attributes');
    for (const m of tags) {
      if (m[1]) assert.equal(stack.pop(), m[2], `closing </${m[2]}> matches its opening tag`);
      else if (!m[4]) stack.push(must(m[2], `the tag name in ${m[0]}`));
    }
    assert.deepEqual(stack, [], 'every element is closed');
    assert.equal(
      svg.replace(/<[^>]*>/g, '').match(/[<>]|&(?!#\d+;|amp;|lt;|gt;|quot;)/g),
      null,
      'text is escaped',
    );
    assert.ok(svg.includes('a &#60;b&#62; &#38; &#34;c&#34;'));
    assert.equal((svg.match(/<rect x="240"/g) ?? []).length, 2, 'one bar each for autos-mcp and sdk-v2');
  });

  test('the SVG chart names a client that produced no figure instead of leaving its bar out silently', () => {
    const large: Row = {
      ...p50,
      label: '64 MiB result stdio',
      cells: {
        raw: { value: 1500 },
        'autos-mcp': { value: 1550, ratioVsRaw: 1.03 },
        'sdk-v2': { value: Number.NaN, note: 'failed: gave up after 30 s' },
      },
    };
    const svg = renderSvg(fakeReport([large]));
    assert.ok(svg.includes('sdk-v2: failed: gave up after 30 s'), svg);
    assert.equal((svg.match(/<rect x="240"/g) ?? []).length, 1, 'a bar only for autos-mcp');
  });

  test('targets read autos-mcp figures: met, not met, and not measured', () => {
    const http = (label: string, autos: Row['cells'][string]): Row => ({
      ...p50,
      label,
      cells: { raw: { value: 0.2 }, 'autos-mcp': autos },
    });
    const verdicts = assessTargets(
      fakeReport([
        p50,
        http('HTTP JSON 2026-07-28 p50', {
          value: 0.22,
          ratioVsRaw: 1.1,
          ratioVsUndici: 1.2,
          ratioVsSdkV2: 0.2,
        }),
        // The SDK v2 server's own cost dominates its rows: the targets do not read them.
        http('HTTP JSON 2026-07-28 (SDK v2 server) p50', { value: 3, ratioVsRaw: 2, ratioVsSdkV2: 0.9 }),
        {
          label: 'runtime install size',
          unit: 'MB',
          lowerIsBetter: true,
          cells: { 'autos-mcp': { value: 3.4 } },
        },
      ]),
    );
    const byName = new Map(verdicts.map((v) => [v.target, v.met]));
    assert.equal(byName.get('stdio p50 ≤ 1.3× raw'), true);
    assert.equal(byName.get('stdio p50 ≤ 0.5× SDK v2'), true);
    assert.equal(byName.get('HTTP p50 ≤ 0.3× SDK v2 (hand-written server)'), true);
    assert.equal(byName.get('HTTP p50 ≤ 1.15× raw node:http (hand-written server)'), true);
    assert.equal(byName.get('HTTP p50 ≤ 1.15× raw undici (hand-written server)'), false);
    assert.equal(byName.get('runtime install ≤ 3 MB'), false);
    assert.equal(byName.get('import ≤ 30 ms over node start'), undefined);
  });

  test('a re-run replaces only the text between the performance.md markers', () => {
    const page = `# Title\nhand-written\n${START_MARKER}\nold figures\n${END_MARKER}\ntail\n`;
    const next = replaceGenerated(page, `${START_MARKER}\nnew\n${END_MARKER}`);
    assert.equal(next, `# Title\nhand-written\n${START_MARKER}\nnew\n${END_MARKER}\ntail\n`);
    assert.throws(() => replaceGenerated('# no markers', 'x'), /markers/);
  });

  test('install footprint counts scoped and nested packages and sums file bytes', async () => {
    const root = await mkdtemp(join(tmpdir(), 'bench-footprint-'));
    try {
      const pkg = async (dir: string, bytes: number) => {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, 'package.json'), 'x'.repeat(bytes));
      };
      await pkg(join(root, 'a'), 10);
      await pkg(join(root, '@s', 'b'), 20);
      await pkg(join(root, 'a', 'node_modules', 'c'), 30);
      await mkdir(join(root, '.bin'));
      assert.deepEqual(await footprint(root), { bytes: 60, packages: 3 });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
