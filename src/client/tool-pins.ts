/**
 * Filters and pins applied to a checked tool list: what the config filters out and what drifted from
 * its pin is moved to `excluded` with the reason (what is listed is callable, what is excluded is
 * refused), a pinned tool the server no longer lists is added there too, and every listed tool gets its
 * digest. A drifted tool is named with the parts that changed, never their text: the new text is what a
 * rug pull would want a model to read. An app-only tool (MCP Apps: `_meta.ui.visibility` without
 * `"model"`, see protocol/apps-ui.ts) that passes the filter and its pin goes to `appOnly`: callable, but
 * in no model-facing list, since every such list is built from `tools`.
 *
 * Digests are computed when a pin needs them; otherwise on first read of `digests[name]` or `listDigest`
 * (hashing every definition loads node:crypto and costs per tool, and most listings never read them: a
 * CLI `call` lists only to check the name and coerce arguments).
 */
import type { NormalizedCommon } from '../config/index.js';
import { TOOL_PARTS, type ToolPart, type ToolPin } from '../config/tool-policy.js';
import { defineLazy } from '../internal/lazy-property.js';
import { isAppOnly } from '../protocol/apps-ui.js';
import { checkDigestDepth, listDigest, toolDigest } from './tool-digest.js';
import { filterReason } from './tool-filter.js';
import type { CheckedTools } from './tools.js';
import type { ExcludedTool, Tool, ToolDigest, ToolDrift } from './types.js';

/** A checked list with the policy applied and the digests of what is left. */
export interface ListedTools extends CheckedTools {
  /** Usable tools that are app-only: callable by name, kept out of `tools` (see `ToolList.appOnly`). */
  appOnly: Tool[];
  digests: Record<string, ToolDigest>;
  listDigest: string;
}

type Policy = Pick<NormalizedCommon, 'toolFilter' | 'pins'>;

/** The pin of `name`, if the config has one (own keys only: a tool may be named `__proto__`). */
export function pinOf(policy: Policy, name: string): ToolPin | undefined {
  const pins = policy.pins;
  return pins !== undefined && Object.hasOwn(pins, name) ? pins[name] : undefined;
}

/** How `current` differs from `pin`: undefined when it matches; else the parts that differ (may be empty). */
export function driftOf(pin: ToolPin, current: ToolDigest): ToolPart[] | undefined {
  if (pin.digest === current.digest) return undefined;
  const pinned = pin.parts;
  // Pinned by the whole digest only: which parts changed is not known.
  if (pinned === undefined) return [];
  return TOOL_PARTS.filter((part) => pinned[part] !== current.parts[part]);
}

/** The reason given for a drifted tool: "its definition changed since it was pinned (description)". */
export function driftReason(drift: ToolDrift): string {
  if (drift.missing) return 'it is pinned, but the server no longer lists it';
  return drift.changed.length > 0
    ? `its definition changed since it was pinned (${drift.changed.join(', ')})`
    : 'its definition changed since it was pinned (pinned by its whole digest, so which parts is not known)';
}

/** Applies the config's `tools` filter and `pin` to a checked list. Never throws on server data. */
export function applyToolPolicy(checked: CheckedTools, policy: Policy): ListedTools {
  const tools: Tool[] = [];
  const appOnly: Tool[] = [];
  const excluded: ExcludedTool[] = [...checked.excluded];
  const digests: Record<string, ToolDigest> = {};
  const seen = new Set<string>(checked.excluded.map((e) => e.name));
  for (const tool of checked.tools) {
    seen.add(tool.name);
    const filtered = filterReason(policy.toolFilter, tool.name);
    if (filtered !== undefined) {
      excluded.push({ name: tool.name, reason: filtered });
      continue;
    }
    const pin = pinOf(policy, tool.name);
    let digest: ToolDigest | undefined;
    try {
      if (pin === undefined) checkDigestDepth(tool);
      else digest = toolDigest(tool);
    } catch {
      excluded.push({ name: tool.name, reason: 'the definition is nested too deeply to digest' });
      continue;
    }
    const changed = pin === undefined || digest === undefined ? undefined : driftOf(pin, digest);
    if (changed !== undefined) {
      const drift: ToolDrift = { changed, missing: false };
      excluded.push({ name: tool.name, reason: driftReason(drift), drift });
      continue;
    }
    if (isAppOnly(tool)) {
      appOnly.push(tool);
      continue;
    }
    if (digest === undefined) defineLazy(digests, tool.name, () => toolDigest(tool));
    else
      Object.defineProperty(digests, tool.name, {
        value: digest,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    tools.push(tool);
  }
  for (const name of Object.keys(policy.pins ?? {})) {
    if (seen.has(name) || filterReason(policy.toolFilter, name) !== undefined) continue;
    const drift: ToolDrift = { changed: [], missing: true };
    excluded.push({ name, reason: driftReason(drift), drift });
  }
  const callable = new Set([...tools, ...appOnly].map((t) => t.name));
  const headerParams = new Map([...checked.headerParams].filter(([name]) => callable.has(name)));
  const listed = { tools, appOnly, excluded, headerParams, digests } as ListedTools;
  defineLazy(listed, 'listDigest', () => listDigest(digests));
  return listed;
}
