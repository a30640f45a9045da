/**
 * The import-rule checker behind test/architecture/imports.test.ts: pure functions over an in-memory file set
 * (path → source text), so the checker is tested on planted violations apart from src/. It reads every import
 * a module makes — static `import`/`export … from`, `import type`, `typeof import('…')`, dynamic `import('…')`,
 * `require('…')` and calls of a `createRequire(…)` function — and judges each one that lands in src/ against
 * the rule table docs/architecture.md states.
 */
import path from 'node:path';
import ts from 'typescript';

/** One import of one module: the literal specifier as written, and where it stands. */
interface ImportSite {
  specifier: string;
  line: number;
}

/**
 * Every module specifier `source` names as a string literal. A computed specifier (`import(name)`) names no
 * module of its own, so it is not listed; the code that builds it answers for what it loads.
 */
export function importsOf(source: string, fileName = 'module.ts'): ImportSite[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const sites: ImportSite[] = [];
  const requireNames = new Set(['require']);
  const add = (node: ts.Node | undefined): void => {
    if (node !== undefined && ts.isStringLiteralLike(node)) {
      sites.push({
        specifier: node.text,
        line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
      });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
      // `const load = createRequire(import.meta.url)`: `load('…')` loads a module from here on.
      const init = node.initializer;
      if (
        ts.isCallExpression(init) &&
        ts.isIdentifier(init.expression) &&
        init.expression.text === 'createRequire'
      ) {
        requireNames.add(node.name.text);
      }
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
      else if (requireCall(callee, requireNames)) add(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sites;
}

/** `require(…)`, `load(…)` of a createRequire function, `createRequire(…)(…)`, and their `.resolve(…)`. */
function requireCall(callee: ts.Expression, names: Set<string>): boolean {
  const target =
    ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' ? callee.expression : callee;
  if (ts.isIdentifier(target)) return names.has(target.text);
  return (
    ts.isCallExpression(target) &&
    ts.isIdentifier(target.expression) &&
    target.expression.text === 'createRequire'
  );
}

/**
 * The src/ file a relative specifier names (`../x.js` is `../x.ts`, a folder is its `index.ts`), or undefined
 * for a package, a `node:` builtin, or a path outside the file set.
 */
export function resolveImport(
  from: string,
  specifier: string,
  files: ReadonlySet<string>,
): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.join(path.posix.dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    base,
    `${base}.ts`,
    `${base}/index.ts`,
  ];
  return candidates.find((candidate) => files.has(candidate));
}

/**
 * The folder a src/ file belongs to, as the rules name folders: the first folder under src/
 * (`src/transport/http/sse.ts` is in `transport`); a file directly in src/ is its own unit, by its name
 * (`src/version.ts` is `version`, `src/index.ts` is `index`).
 */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts.length < 2) throw new Error(`not a file in src/: ${file}`);
  const first = parts[1] ?? '';
  return parts.length === 2 ? first.replace(/\.[^.]+$/, '') : first;
}

/** One rule of the table: which folders it binds, and which folders they may or may not import. */
export type Rule =
  | { kind: 'only'; folders: string[]; allowed: string[]; text: string }
  | { kind: 'not'; folders: string[] | 'all'; except: string[]; denied: string[]; text: string }
  | { kind: 'no-cycle'; text: string }
  | { kind: 'layers'; rows: ReadonlyMap<string, number>; text: string };

const CODE = /`([^`]+)`/g;

function namesIn(cell: string): string[] {
  return [...cell.matchAll(CODE)].map((match) => match[1] ?? '');
}

/**
 * The rules in the fenced `import-rules` table of `page` (docs/architecture.md). Each row reads
 * `| folders | may import | why |`, where folders is a list of `name`s, or `every folder`, optionally
 * `but `x``; and may import is `only `a`, `b`` (nothing else in src/, `none` for nothing), `anything but
 * `a`, `b``, or `no cycle between folders`.
 */
export function rulesFromPage(page: string): Rule[] {
  const start = page.indexOf('<!-- import-rules -->');
  const end = page.indexOf('<!-- /import-rules -->');
  if (start < 0 || end < start)
    throw new Error('the page has no <!-- import-rules --> … <!-- /import-rules --> table');
  const rows = page
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2); // the header and its --- line
  return rows.map((row) => {
    const cells = row.split('|').map((cell) => cell.trim());
    const who = cells[1] ?? '';
    const may = cells[2] ?? '';
    const text = `${who.replaceAll('`', '')} may import ${may.replaceAll('`', '')}`;
    if (/^no cycle\b/.test(may)) return { kind: 'no-cycle', text: 'no import cycle between folders' };
    const everyFolder = /^every folder\b/.test(who);
    const [whoNames, exceptNames] = everyFolder ? [[], namesIn(who)] : [namesIn(who), []];
    if (!everyFolder && whoNames.length === 0) throw new Error(`a rule names no folder: ${row}`);
    if (may.startsWith('only')) {
      if (everyFolder) throw new Error(`an "only" rule must name its folders: ${row}`);
      return { kind: 'only', folders: whoNames, allowed: namesIn(may), text };
    }
    if (may.startsWith('anything but')) {
      return {
        kind: 'not',
        folders: everyFolder ? 'all' : whoNames,
        except: exceptNames,
        denied: namesIn(may),
        text,
      };
    }
    throw new Error(`a rule is neither "only …", "anything but …" nor "no cycle …": ${row}`);
  });
}

/**
 * The layer picture of `page`: the fenced block between `<!-- layers -->` and `<!-- /layers -->`, one row per
 * line from the top, each a label, two or more spaces, then the folders of that row (`name`, or `name.ts` for
 * a file directly in src/; other words are ignored unless they are in `units`). A folder may import only from
 * the rows below its own.
 */
export function layersFromPage(page: string, units: ReadonlySet<string>): Rule {
  const start = page.indexOf('<!-- layers -->');
  const end = page.indexOf('<!-- /layers -->');
  if (start < 0 || end < start) throw new Error('the page has no <!-- layers --> … <!-- /layers --> picture');
  const rows = new Map<string, number>();
  const lines = page
    .slice(start, end)
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('<!--') && !line.startsWith('```'));
  lines.forEach((line, row) => {
    const body = line.replace(/^\S.*?\s{2,}/, '');
    for (const word of body.match(/[a-z][a-z-]*(\.ts)?/g) ?? []) {
      const unit = word.replace(/\.ts$/, '');
      if (!units.has(unit)) continue;
      const seen = rows.get(unit);
      if (seen !== undefined && seen !== row) throw new Error(`${unit} is in two rows of the layer picture`);
      rows.set(unit, row);
    }
  });
  return { kind: 'layers', rows, text: 'imports point down the layer picture' };
}

/** One import that breaks a rule: `src/a/x.ts imports src/b/y.ts: <rule>`. */
export interface Violation {
  from: string;
  to: string;
  line: number;
  rule: string;
}

/** How a violation reads in a failure. */
export function describe(violation: Violation): string {
  return `${violation.from} imports ${violation.to}: ${violation.rule}`;
}

interface Edge {
  from: string;
  to: string;
  line: number;
}

/** Every import between two src/ files of `files`, in file order. */
export function edgesOf(files: ReadonlyMap<string, string>): Edge[] {
  const names = new Set(files.keys());
  const edges: Edge[] = [];
  for (const [from, source] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    for (const site of importsOf(source, from)) {
      const to = resolveImport(from, site.specifier, names);
      if (to !== undefined) edges.push({ from, to, line: site.line });
    }
  }
  return edges;
}

/** What `rule` says of an import from folder `from` into folder `to`, when it breaks the rule. */
function breach(rule: Rule, from: string, to: string): string | undefined {
  if (from === to) return undefined;
  if (rule.kind === 'only') {
    if (!rule.folders.includes(from) || rule.allowed.includes(to)) return undefined;
    return `${from} may import only ${rule.allowed.join(', ')}`;
  }
  if (rule.kind === 'not') {
    const binds = rule.folders === 'all' ? !rule.except.includes(from) : rule.folders.includes(from);
    return binds && rule.denied.includes(to) ? `${from} must not import ${to}` : undefined;
  }
  if (rule.kind === 'layers') {
    const own = rule.rows.get(from);
    const other = rule.rows.get(to);
    if (own === undefined || other === undefined || other > own) return undefined;
    return `${from} may import only from the rows below its own in the layer picture (${to} is ${other === own ? 'in the same row' : 'above'})`;
  }
  return undefined;
}

/**
 * The folders of each import cycle: the strongly connected components of the folder graph with more than one
 * folder (Tarjan's algorithm). Every import between two folders of one component lies on a cycle.
 */
function cyclesOf(graph: Map<string, Set<string>>): Map<string, number> {
  const component = new Map<string, number>();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let next = 0;
  let count = 0;
  const connect = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    for (;;) {
      const member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      members.push(member);
      if (member === node) break;
    }
    if (members.length > 1) for (const member of members) component.set(member, count);
    count += 1;
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return component;
}

/** The shortest folder path from `from` back to `to` along the graph, for a cycle's message. */
function pathBetween(graph: Map<string, Set<string>>, from: string, to: string): string[] {
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift() ?? '';
    if (node === to) break;
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (previous.has(next)) continue;
      previous.set(next, node);
      queue.push(next);
    }
  }
  const out = [to];
  while (out[0] !== from) out.unshift(previous.get(out[0] ?? '') ?? from);
  return out;
}

/** Every import in `files` (src/ path → source) that breaks one of `rules`, each rule it breaks once. */
export function checkImports(files: ReadonlyMap<string, string>, rules: readonly Rule[]): Violation[] {
  const edges = edgesOf(files);
  const violations: Violation[] = [];
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    const from = folderOf(edge.from);
    const to = folderOf(edge.to);
    for (const rule of rules) {
      const broken = breach(rule, from, to);
      if (broken !== undefined) violations.push({ ...edge, rule: broken });
    }
    if (from === to) continue;
    const targets = graph.get(from) ?? new Set<string>();
    targets.add(to);
    graph.set(from, targets);
  }
  const noCycle = rules.find((rule) => rule.kind === 'no-cycle');
  if (noCycle !== undefined) {
    const component = cyclesOf(graph);
    for (const edge of edges) {
      const from = folderOf(edge.from);
      const to = folderOf(edge.to);
      if (from === to || component.get(from) === undefined || component.get(from) !== component.get(to))
        continue;
      const loop = [from, ...pathBetween(graph, to, from)].join(' → ');
      violations.push({ ...edge, rule: `${noCycle.text} (${loop})` });
    }
  }
  return violations;
}
