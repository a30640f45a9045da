/**
 * Which scopes to ask for (S25/basic/authorization "Scope Selection Strategy", S26 index): the config's,
 * else the challenge's, else the resource's `scopes_supported`, else none; on a step-up the union with
 * what was asked before; `offline_access` only where the authorization server lists it.
 */
export function splitScopes(text: string | undefined): string[] {
  return text === undefined ? [] : text.split(/\s+/).filter((s) => s !== '');
}

export function joinScopes(scopes: Iterable<string>): string | undefined {
  const list = [...new Set(scopes)];
  return list.length === 0 ? undefined : list.join(' ');
}

export interface ScopeInputs {
  readonly configured: readonly string[] | undefined;
  readonly challenge: string | undefined;
  readonly resourceSupported: readonly string[] | undefined;
  /** The scopes of the last request for this resource, for the step-up union. */
  readonly previous: string | undefined;
  /** The authorization server's `scopes_supported`. */
  readonly serverSupported: readonly unknown[] | undefined;
  /** Whether a refresh token is worth asking for (a user-facing grant). */
  readonly wantsRefresh: boolean;
}

export function chooseScopes(inputs: ScopeInputs): string | undefined {
  const base =
    inputs.configured !== undefined && inputs.configured.length > 0
      ? [...inputs.configured]
      : inputs.challenge !== undefined && splitScopes(inputs.challenge).length > 0
        ? splitScopes(inputs.challenge)
        : [...(inputs.resourceSupported ?? [])];
  const chosen = [...splitScopes(inputs.previous), ...base];
  if (inputs.configured !== undefined && inputs.challenge !== undefined)
    chosen.push(...splitScopes(inputs.challenge));
  if (inputs.wantsRefresh && inputs.serverSupported?.includes('offline_access'))
    chosen.push('offline_access');
  return joinScopes(chosen);
}

/** True when every scope the challenge asks for was already requested: asking again will not help. */
export function covered(challenge: string | undefined, requested: string | undefined): boolean {
  const wanted = splitScopes(challenge);
  if (wanted.length === 0) return false;
  const have = new Set(splitScopes(requested));
  return wanted.every((s) => have.has(s));
}
