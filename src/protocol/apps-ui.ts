/**
 * MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865) as a client without a UI reads it: a tool's
 * `_meta.ui.visibility` says who may call it, and a tool whose visibility leaves out `"model"` is
 * app-only — a helper the server's UI calls, never offered to a model. `_meta.ui.resourceUri` (the UI
 * resource; `_meta["ui/resourceUri"]` on older servers) stays in the tool's `_meta` as data. Pure and
 * bounded: `_meta.ui` is server data, so only an array of at most MAX_VISIBILITY_ENTRIES strings of at most
 * MAX_VISIBILITY_CHARS each counts; anything else is "no visibility given", which means visible to the
 * model (the extension's default).
 */

/** Longest `visibility` array read; a longer one is ignored (the tool stays visible to the model). */
export const MAX_VISIBILITY_ENTRIES = 8;
/** Longest entry of `visibility` read; an array with a longer entry is ignored. */
export const MAX_VISIBILITY_CHARS = 64;

/** The reason an app-only tool is kept out of model-facing lists. */
export const APP_ONLY_REASON =
  'app-only: its _meta.ui.visibility does not include "model" (callable by name from code)';

/** `_meta.ui.visibility` when it is a bounded array of short strings, else undefined (not given). */
export function toolVisibility(tool: unknown): readonly string[] | undefined {
  const visibility = uiOf(tool)?.['visibility'];
  if (!Array.isArray(visibility) || visibility.length > MAX_VISIBILITY_ENTRIES) return undefined;
  for (const entry of visibility)
    if (typeof entry !== 'string' || entry.length > MAX_VISIBILITY_CHARS) return undefined;
  return visibility as string[];
}

/** True when the tool names a visibility that leaves out `"model"`: kept out of every model-facing output. */
export function isAppOnly(tool: unknown): boolean {
  const visibility = toolVisibility(tool);
  return visibility !== undefined && !visibility.includes('model');
}

/** The key older MCP Apps servers put the UI resource under (`_meta["ui/resourceUri"]`, deprecated). */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/**
 * `_meta.ui.resourceUri`, else the deprecated `_meta["ui/resourceUri"]` (ext-apps' `registerAppTool` still
 * writes both, for older hosts; an older server writes only the second), when it is a string of at most
 * 2,048 characters; else undefined.
 */
export function uiResourceUri(tool: unknown): string | undefined {
  const meta = metaOf(tool);
  const uri = uiOf(tool)?.['resourceUri'] ?? meta?.[LEGACY_RESOURCE_URI_KEY];
  return typeof uri === 'string' && uri.length <= 2048 ? uri : undefined;
}

function metaOf(tool: unknown): Record<string, unknown> | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const meta = (tool as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  return meta as Record<string, unknown>;
}

function uiOf(tool: unknown): Record<string, unknown> | undefined {
  const ui = metaOf(tool)?.['ui'];
  if (typeof ui !== 'object' || ui === null || Array.isArray(ui)) return undefined;
  return ui as Record<string, unknown>;
}
