/**
 * The demo server's tools, in the order `tools/list` shows them (those of `examples/demo-server.mjs`), and
 * the instructions that name them. A new demo tool is one module here and one entry in `TOOLS`.
 */
import { big } from './big.js';
import { calls } from './calls.js';
import { confirm } from './confirm.js';
import { echo } from './echo.js';
import { fail } from './fail.js';
import { image } from './image.js';
import { slow } from './slow.js';
import type { DemoTool } from './tool.js';
import { typed } from './typed.js';

export const TOOLS: readonly DemoTool[] = [echo, slow, image, confirm, typed, fail, big, calls];

export const INSTRUCTIONS =
  'Demo server for autos-mcp. Tools: echo (repeat text), slow (progress notifications), ' +
  'image (a small PNG), confirm (asks the user, 2026-07-28), typed (returns its arguments), ' +
  'fail (a tool error result), big (a large result), calls (how many calls came before).';

const BY_NAME = new Map(TOOLS.map((tool) => [tool.definition.name, tool]));

/** The tool called `name`, if the demo server has one. */
export function toolNamed(name: unknown): DemoTool | undefined {
  return typeof name === 'string' ? BY_NAME.get(name) : undefined;
}
