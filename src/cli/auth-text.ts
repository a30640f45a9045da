/**
 * What `login`, `logout` and `auth status` print: the URL shown (origin and path only), the login prompt,
 * the expiry and scopes of a login, and a stored login's status. Every server string passes `safeText`.
 */
import type { LoginPrompt, OAuthStatus } from '../oauth/index.js';
import { safeText } from './format.js';
import type { CliIo } from './io.js';

/** `url` for messages: origin and path only (a query or a fragment may carry a secret). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return safeText(`${parsed.origin}${parsed.pathname}`);
  } catch {
    return safeText(url.replace(/[?#].*$/s, ''));
  }
}

/** `url` as a shell word for a `run:` line. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:%~@+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

export function oneLine(text: string): string {
  return safeText(text).replace(/\s+/g, ' ').trim();
}

export function showPrompt(io: CliIo, prompt: LoginPrompt): void {
  if (prompt.kind === 'browser') {
    io.stderr.write(
      `Open this URL in a browser to log in:\n\n  ${oneLine(prompt.url)}\n\nWaiting for the browser to come back…\n`,
    );
    return;
  }
  const complete =
    prompt.verificationUriComplete === undefined
      ? ''
      : `  (or open ${oneLine(prompt.verificationUriComplete)}, which carries the code)\n`;
  const minutes = Math.max(1, Math.round(prompt.expiresInSeconds / 60));
  io.stderr.write(
    `To log in, open ${oneLine(prompt.verificationUri)} and enter the code: ${oneLine(prompt.userCode)}\n` +
      complete +
      `Waiting for the approval (the code expires in ${minutes} min)…\n`,
  );
}

/** `2026-01-01T10:00:00.000Z (in 59 min)`, or a note when the server gave no expiry. */
export function expiry(expiresAt: string | undefined, refreshable: boolean): string {
  const refresh = refreshable ? 'refreshable' : 'not refreshable';
  if (expiresAt === undefined) return `not given by the server (${refresh})`;
  const left = Date.parse(expiresAt) - Date.now();
  const when =
    left <= 0
      ? 'expired'
      : left < 120_000
        ? `in ${Math.round(left / 1000)} s`
        : left < 7_200_000
          ? `in ${Math.round(left / 60_000)} min`
          : `in ${Math.round(left / 3_600_000)} h`;
  return `${expiresAt} (${when}; ${refresh})`;
}

export function scopesText(scopes: readonly string[]): string {
  return scopes.length === 0 ? '(none given)' : oneLine(scopes.join(' '));
}

export function statusText(status: OAuthStatus, withStore: boolean): string {
  const url = shownUrl(status.url);
  const lines: string[] = [];
  if (status.issuer === undefined) {
    lines.push(`${url}: not logged in`, `  run: autos-mcp login ${shellWord(url)}`);
  } else {
    lines.push(
      `${url}: ${status.loggedIn ? 'logged in' : 'the login has expired'}`,
      `  issuer:  ${oneLine(status.issuer)}`,
      `  scopes:  ${scopesText(status.scopes)}`,
      `  expires: ${expiry(status.expiresAt, status.refreshable)}`,
      `  type:    ${oneLine(status.tokenType ?? 'bearer')}`,
    );
    if (!status.loggedIn) lines.push(`  run: autos-mcp login ${shellWord(url)}`);
  }
  if (withStore) lines.push(`  store:   ${status.store}`);
  return `${lines.join('\n')}\n`;
}
