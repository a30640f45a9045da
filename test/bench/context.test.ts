/**
 * The context benchmark's task (bench/context-task.md) run for real over the sources, both ways, against
 * three real servers (the 139-tool fixture, server-memory, server-filesystem): each way must reach the
 * expected answer (the group asserts it), and code mode must read at least 90 % less than the lenient
 * baseline (every definition once, every result whole). Sizes, not times: deterministic.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runContext } from '../../bench/groups/context.js';

test('code mode reads at least 90 % less than loading every definition and every result', async () => {
  const lines: string[] = [];
  const section = await runContext({
    log: (line) => lines.push(line),
    modules: {
      catalog: new URL('../../src/catalog/index.ts', import.meta.url).href,
      code: new URL('../../src/code/index.ts', import.meta.url).href,
    },
  });
  const value = (label: string): number => {
    const row = section.rows.find((r) => r.label.startsWith(label));
    assert.ok(row, `a row ${label}`);
    return row.cells['autos-mcp']?.value ?? Number.NaN;
  };
  const once = value('baseline: definitions once');
  const code = value('code mode');
  assert.ok(once > 500_000, `the baseline carries the definitions and the 205 KB result twice: ${once}`);
  assert.ok(code < once * 0.1, `code mode ${code} chars against ${once}: ${lines.join('; ')}`);
  assert.ok(value('saved against definitions once') >= 90);
});
