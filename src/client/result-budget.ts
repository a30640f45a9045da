/**
 * Result budgets (`maxResultChars`): a result is measured as the characters (UTF-16 code units) of its
 * model-facing JSON — `JSON.stringify` of the result with the text blocks that repeat `structuredContent`
 * left out. Within the budget, that form is returned. Over it, the whole result as the server sent it is
 * written as JSON to a private file (0600, in a 0700 directory made once per process under the temp
 * directory) and the result comes back cut (`result-cut.ts`) with `truncated: { originalChars, file }`.
 * The file is the caller's: nothing here removes it. Measuring stops at the budget, so a result within it
 * costs O(its size) and one over it O(budget) to measure; only the file is written in O(size).
 */
import { resultCharsOf } from '../config/checks.js';
import { McpError } from '../errors/index.js';
import { jsonSizeWithin } from '../internal/json-size.js';
import { jsonText } from '../internal/json-text.js';
import { nodeCrypto } from '../internal/lazy-builtins.js';
import { cutResult } from './result-cut.js';
import { withoutRepeats } from './result-repeats.js';
import type { CallToolResult, Tool } from './types.js';

/** The `_meta` key of a tool definition where its author gives the largest result it should send. */
export const MAX_RESULT_SIZE_META = 'anthropic/maxResultSizeChars';

/** The smallest budget: a tool's own hint below it is raised to it (room for the marker). */
const MIN_BUDGET = 512;

/**
 * The budget of one call: the call's `maxResultChars`, else the config's; undefined when neither is set
 * (the result comes back as the server sent it). A tool's `_meta["anthropic/maxResultSizeChars"]` (a
 * positive integer; raised to 512 when smaller) lowers a budget, never raises one: the caller's budget
 * is a ceiling the server may not lift, and a tool that asks for less is taken at its word.
 */
export function budgetOf(
  callBudget: unknown,
  configBudget: number | undefined,
  tool: Tool | undefined,
): number | undefined {
  let budget: number | undefined;
  try {
    budget = resultCharsOf(callBudget) ?? configBudget;
  } catch (error) {
    throw new McpError(
      'config',
      `callTool: maxResultChars must be an integer from ${MIN_BUDGET} to ${2 ** 31 - 1}`,
      { cause: error },
    );
  }
  if (budget === undefined) return undefined;
  const hint = tool?._meta?.[MAX_RESULT_SIZE_META];
  if (typeof hint === 'number' && Number.isInteger(hint) && hint > 0)
    return Math.min(budget, Math.max(hint, MIN_BUDGET));
  return budget;
}

let spillDir: Promise<string> | undefined;

/** Writes the whole result's JSON to a fresh private file; resolves with its path. */
async function spill(text: string): Promise<string> {
  // Loaded when a result first goes over its budget: fs/promises, os and crypto are not needed before.
  const { ensurePrivateDir, freshPrivateDir, PrivateFileError, writePrivateFile } = await import(
    '../internal/private-files.js'
  );
  spillDir ??= freshPrivateDir('autos-mcp-results-').catch((error: unknown) => {
    spillDir = undefined;
    throw error;
  });
  try {
    // Checked (and made again, 0700) on every write: the caller may have removed it meanwhile.
    const dir = await ensurePrivateDir(await spillDir);
    return await writePrivateFile(
      dir,
      `result-${Date.now()}-${nodeCrypto().randomBytes(6).toString('hex')}.json`,
      text,
    );
  } catch (error) {
    if (!(error instanceof PrivateFileError)) throw error;
    // The tool ran (its result is here): `delivered`, so no one retries a call that may have acted.
    throw new McpError('config', `result dir ${error.message}: the result over budget was not cut`, {
      delivery: 'delivered',
      cause: error.cause ?? error,
    });
  }
}

/**
 * `result` within `budget` characters (see the file comment): the model-facing form when it fits, else
 * cut with `truncated` and the whole result in a file. Throws `McpError` kind `config`, `delivered`, when
 * the file cannot be written (a result is never cut without its file).
 */
export async function applyBudget(result: CallToolResult, budget: number): Promise<CallToolResult> {
  const { result: form, dropped } = withoutRepeats(result);
  if (jsonSizeWithin(form, budget) <= budget) return form;
  const whole = jsonText(result);
  const file = await spill(whole);
  const contentWithRepeats = dropped.length === 0 ? form.content : result.content;
  return cutResult({
    form,
    contentWithRepeats,
    budget,
    truncated: { originalChars: whole.length, file },
  });
}
