/**
 * Which references of an `inputSchema` `validateArguments` lets the validator follow: only fragments that
 * resolve inside the schema, so nothing is ever fetched (arguments.ts).
 */

/**
 * True when every `$ref` and `$recursiveRef` is a fragment that resolves inside the schema: a JSON Pointer
 * from the root (`#/$defs/item`), `#`, or an `$anchor` it defines. Anything else (a URL, a file, another
 * document's `$id`) is refused before the validator sees it, so nothing can be fetched or guessed. (A
 * subschema with its own `$id` may be refused here although it would resolve; the cost of staying simple.)
 */
export function refsResolve(schema: unknown): boolean {
  const refs: string[] = [];
  const anchors = new Set<string>();
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    for (const key of ['$ref', '$recursiveRef', '$dynamicRef'])
      if (Object.hasOwn(record, key)) refs.push(typeof record[key] === 'string' ? record[key] : '\u0000');
    if (typeof record['$anchor'] === 'string') anchors.add(record['$anchor']);
    for (const value of Object.values(record)) stack.push(value);
  }
  return refs.every((ref) => {
    if (!ref.startsWith('#')) return false;
    if (ref === '#') return true;
    if (!ref.startsWith('#/')) return anchors.has(ref.slice(1));
    let node: unknown = schema;
    for (const raw of ref.slice(2).split('/')) {
      let segment: string;
      try {
        segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      } catch {
        return false;
      }
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return false;
      node = (node as Record<string, unknown>)[segment];
    }
    return typeof node === 'boolean' || (typeof node === 'object' && node !== null && !Array.isArray(node));
  });
}
