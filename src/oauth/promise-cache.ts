/** A promise kept per key (an authorization server's metadata, a DPoP key), dropped when it rejects. */
export function cached<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let found = map.get(key);
  if (found === undefined) {
    found = make();
    // A failure is not kept: the next caller tries again.
    found.catch(() => map.delete(key));
    map.set(key, found);
  }
  return found;
}
