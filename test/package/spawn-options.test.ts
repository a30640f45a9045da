/**
 * Every child process autos-mcp starts is started with `windowsHide: true`: without it, Windows opens a
 * console window for each one (a window flashes per server, keyring helper or browser opener). The rule is
 * read from the source with the TypeScript parser, so a new call site cannot forget it: each call of a
 * `node:child_process` function in src/ must pass an options object literal with `windowsHide: true`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STARTERS = new Set(['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']);

interface Site {
  where: string;
  hidden: boolean;
}

/** The calls of `node:child_process` starters in one file (by their imported local names). */
function sites(file: string): Site[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const local = new Map<string, string>();
  const found: Site[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (from !== 'node:child_process' && from !== 'child_process') continue;
    const named = statement.importClause?.namedBindings;
    // A namespace or default import would hide its calls from this scan: refused outright.
    if (statement.importClause?.name !== undefined || (named !== undefined && !ts.isNamedImports(named)))
      found.push({ where: `${path.relative(ROOT, file)}: import child_process by name`, hidden: false });
    if (named === undefined || !ts.isNamedImports(named)) continue;
    for (const element of named.elements) {
      const imported = (element.propertyName ?? element.name).text;
      if (STARTERS.has(imported)) local.set(element.name.text, imported);
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && local.has(node.expression.text)) {
      const options = node.arguments.find(ts.isObjectLiteralExpression);
      const hidden =
        options?.properties.some(
          (p) =>
            ts.isPropertyAssignment(p) &&
            p.name.getText(source) === 'windowsHide' &&
            p.initializer.kind === ts.SyntaxKind.TrueKeyword,
        ) ?? false;
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ where: `${path.relative(ROOT, file)}:${line + 1} ${node.expression.text}`, hidden });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('every child process started from src/ passes windowsHide: true', () => {
  const files = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(ROOT, 'src', f));
  const all = files.flatMap(sites);
  // The scan must see the known starters, or it proves nothing: the stdio server, the keyring helper,
  // the guard, the unshare probe, taskkill and the browser opener.
  assert.ok(all.length >= 6, `found only ${all.map((s) => s.where).join(', ')}`);
  const missing = all.filter((s) => !s.hidden).map((s) => s.where);
  assert.deepEqual(missing, [], 'calls without windowsHide: true');
});
