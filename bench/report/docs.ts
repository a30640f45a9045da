// Writes the generated pages: docs/benchmarks.md and docs/benchmarks.svg wholesale, and only the part of
// docs/performance.md between the markers, so the hand-written text around it survives a re-run.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from '../model.js';
import { renderTargets, type TargetVerdict } from './targets.js';

export const START_MARKER = '<!-- bench:generated:start -->';
export const END_MARKER = '<!-- bench:generated:end -->';
const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

/** The generated block of docs/performance.md: machine, command, verdicts and links to the figures. */
export function renderGenerated(report: BenchReport, verdicts: readonly TargetVerdict[]): string {
  const m = report.machine;
  return [
    START_MARKER,
    `_Refreshed by \`${report.command}\` on ${report.startedAt}${report.quick ? ' (quick mode — smoke figures only)' : ''}; ` +
      `the run took ${(report.durationMs / 1000).toFixed(0)} s._`,
    '',
    `- Machine: ${m.os}; ${m.cpu} × ${m.cores} cores; ${m.memoryGiB.toFixed(1)} GiB RAM`,
    `- Node ${m.node}`,
    '',
    renderTargets(verdicts),
    '',
    'Full tables: [benchmarks.md](benchmarks.md). Chart:',
    '',
    '![cost ratio vs raw client per measure](benchmarks.svg)',
    END_MARKER,
  ].join('\n');
}

/** Replaces the text between the markers in `page`; throws if the markers are missing or out of order. */
export function replaceGenerated(page: string, generated: string): string {
  const start = page.indexOf(START_MARKER);
  const end = page.indexOf(END_MARKER);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`docs/performance.md: markers ${START_MARKER} … ${END_MARKER} not found in order`);
  }
  return page.slice(0, start) + generated + page.slice(end + END_MARKER.length);
}

const TEMPLATE = `# Performance

How fast autos-mcp is next to a hand-written client and the official SDKs, and how it is measured.

## How to run

\`npm run bench\` builds the library and runs \`bench/run.ts\` (about 5–10 minutes on 2 cores).
\`npm run bench -- --quick\` is a smoke run with small counts; \`--only <group>\` runs one of
\`latency\`, \`first-result\`, \`cold-start\`, \`large\`, \`import\`, \`install\`, \`rss\`, \`worker\`,
\`runtimes\`.

## Method

- One hand-written server (\`bench/server.mjs\`, no SDK) serves every client, so server cost is equal.
- Clients run in interleaved rounds (rotated order each round); ratios are taken within a round, then the
  median over rounds is reported, so machine noise hits every client alike.
- \`raw\` is the floor: line JSON over the pipe with an id map, or node:http with a keep-alive Agent.
- autos-mcp is imported from \`dist/\`, so the figures are for the shipped build.

## Targets (from the Benchmarks issue) and the latest figures

${START_MARKER}
${END_MARKER}
`;

/** Writes all three pages. */
export async function writeDocs(
  report: BenchReport,
  markdown: string,
  svg: string,
  verdicts: readonly TargetVerdict[],
): Promise<void> {
  await mkdir(DOCS, { recursive: true });
  await writeFile(`${DOCS}benchmarks.md`, markdown);
  await writeFile(`${DOCS}benchmarks.svg`, svg);
  const path = `${DOCS}performance.md`;
  const page = existsSync(path) ? await readFile(path, 'utf8') : TEMPLATE;
  await writeFile(path, replaceGenerated(page, renderGenerated(report, verdicts)));
}
