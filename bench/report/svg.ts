// Hand-written SVG bar chart: for every charted row, one horizontal bar per client showing its cost ratio vs
// the raw floor (raw itself is the 1× line). No dependencies; labels are escaped; long bars are clipped.
import type { BenchReport } from '../model.js';
import { formatRatio } from './format.js';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2'];
const LABEL_W = 240;
const PLOT_W = 460;
const BAR_H = 12;
const GAP = 3;
const GROUP_GAP = 12;

/** Escapes text for SVG element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Renders the chart; clients without a ratio in a row get no bar there. */
export function renderSvg(report: BenchReport): string {
  const clients = report.clients.filter((c) => c !== 'raw');
  const rows = report.sections
    .flatMap((s) => s.rows)
    .filter((r) => r.chart && clients.some((c) => r.cells[c]?.ratioVsRaw !== undefined));
  const ratios = rows.flatMap((r) => clients.map((c) => r.cells[c]?.ratioVsRaw ?? 0));
  const max = Math.min(12, Math.max(2, Math.ceil(Math.max(0, ...ratios))));
  const x = (ratio: number) => LABEL_W + (Math.min(ratio, max) / max) * PLOT_W;
  const top = 56;
  const groupH = clients.length * (BAR_H + GAP) + GROUP_GAP;
  const height = top + rows.length * groupH + 30;
  const width = LABEL_W + PLOT_W + 70;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<title>autos-mcp benchmarks: cost ratio vs raw client (lower is better)</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="8" y="18" font-size="14" font-weight="bold">Cost ratio vs raw client (1× = hand-written floor; lower is better)</text>`,
  ];
  clients.forEach((c, i) => {
    const lx = 8 + i * 120;
    parts.push(`<rect x="${lx}" y="30" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/>`);
    parts.push(`<text x="${lx + 14}" y="39">${escapeXml(c)}</text>`);
  });
  const bottom = top + rows.length * groupH;
  const ticks = [1];
  for (let t = 0; t <= max; t += max > 6 ? 2 : 1) if (t !== 1) ticks.push(t);
  for (const t of ticks) {
    parts.push(
      `<line x1="${x(t)}" y1="${top - 4}" x2="${x(t)}" y2="${bottom}" stroke="${t === 1 ? '#111' : '#ddd'}" stroke-width="${t === 1 ? 1.5 : 1}"/>`,
    );
    parts.push(`<text x="${x(t)}" y="${bottom + 14}" text-anchor="middle">${t}×</text>`);
  }
  rows.forEach((row, g) => {
    const y0 = top + g * groupH;
    parts.push(
      `<text x="${LABEL_W - 6}" y="${y0 + (clients.length * (BAR_H + GAP)) / 2 + 4}" text-anchor="end">${escapeXml(row.label)}</text>`,
    );
    clients.forEach((c, i) => {
      const cell = row.cells[c];
      const ratio = cell?.ratioVsRaw;
      const y = y0 + i * (BAR_H + GAP);
      if (ratio === undefined) {
        // A client that ran but produced no figure (e.g. gave up on a 64 MiB result) is named, not left blank.
        if (cell?.note !== undefined) {
          parts.push(
            `<text x="${LABEL_W + 4}" y="${y + BAR_H - 2}" fill="${COLORS[i % COLORS.length]}">${escapeXml(`${c}: ${cell.note}`)}</text>`,
          );
        }
        return;
      }
      const w = Math.max(1, x(ratio) - LABEL_W);
      parts.push(
        `<rect x="${LABEL_W}" y="${y}" width="${w.toFixed(1)}" height="${BAR_H}" fill="${COLORS[i % COLORS.length]}"/>`,
      );
      const clipped = ratio > max ? ' (clipped)' : '';
      parts.push(
        `<text x="${(LABEL_W + w + 4).toFixed(1)}" y="${y + BAR_H - 2}">${escapeXml(formatRatio(ratio) + clipped)}</text>`,
      );
    });
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}
