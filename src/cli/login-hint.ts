/**
 * The line after a refused `tools`/`call`/`discover`: `run: autos-mcp login <url>` when the refusal is
 * OAuth's, a line on passing a token when the server asks for no OAuth login, else nothing.
 */
import { isMcpError } from '../client/index.js';
import type { AuthChallenge } from '../errors/index.js';
import { shellWord, shownUrl } from './auth-text.js';
import { targetUrl } from './target.js';

/**
 * The URL a failed `tools`/`call`/`discover` would log in to, for the `run: autos-mcp login` line:
 * an HTTP target without `AUTOS_MCP_TOKEN` (with a token of its own, a login would not be used).
 */
export function loginHintTarget(line: Parameters<typeof targetUrl>[0]): string | undefined {
  if (process.env['AUTOS_MCP_TOKEN']) return undefined;
  return targetUrl(line);
}

/**
 * After a refusal, `run: autos-mcp login <url>` when it is OAuth's: a stored login that failed (no status),
 * a Bearer/DPoP challenge on a 401 (S25/basic/authorization), or on a 403 naming its resource metadata or
 * asking for more scope. A 401 without one: a line on passing a token. Else '' (the message says why).
 */
export function loginHint(error: unknown, url: string | undefined): string {
  if (url === undefined || !isMcpError(error)) return '';
  if (error.kind !== 'auth_required' && error.kind !== 'forbidden') return '';
  if (isOAuthRefusal(error)) return `run: autos-mcp login ${shellWord(shownUrl(url))}\n`;
  if (error.status === 401)
    return "the server asks for no OAuth login: if it takes a token, pass it with --header 'Authorization: …' or AUTOS_MCP_TOKEN\n";
  return '';
}

function isOAuthRefusal(error: { status?: number; challenge?: AuthChallenge }): boolean {
  if (error.status === undefined) return true;
  const challenge = error.challenge;
  if (challenge === undefined || !/^(bearer|dpop)$/i.test(challenge.scheme)) return false;
  return (
    error.status === 401 ||
    challenge.resourceMetadata !== undefined ||
    challenge.error === 'insufficient_scope'
  );
}
