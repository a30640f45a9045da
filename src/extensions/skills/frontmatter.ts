/**
 * The `name` a `SKILL.md` gives itself in its frontmatter, read without a YAML parser: the top-level
 * `name:` line of the block between the opening and closing `---` lines, plain or quoted. A skill name is
 * 1-64 lowercase letters, digits and hyphens (SEP-2640), so that much YAML is enough to compare it with the
 * entry's `frontmatter.name`; the other keys are not compared (that needs a full YAML reader). Pure.
 */

/** The frontmatter's top-level `name`, or undefined when there is no frontmatter or no such line. */
export function skillMdName(markdown: string): string | undefined {
  let text = markdown.replaceAll('\r\n', '\n');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (!text.startsWith('---\n')) return undefined;
  const close = /^---[\t ]*$/m.exec(text.slice(4));
  if (close === null) return undefined;
  for (const line of text.slice(4, 4 + close.index).split('\n')) {
    const match = /^name:[\t ]*(.*)$/.exec(line);
    if (match === null) continue;
    const value = (match[1] ?? '').replace(/[\t ]+#.*$/, '').trim();
    const quoted = /^"([^"\\]*)"$|^'([^']*)'$/.exec(value);
    return quoted === null ? value : (quoted[1] ?? quoted[2]);
  }
  return undefined;
}
