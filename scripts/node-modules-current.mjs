// Exits 0 when node_modules matches package-lock.json, 1 otherwise; demo.sh, bench.sh and test-all.sh then
// skip or run `npm ci`. npm's own record of what it installed (node_modules/.package-lock.json) must list the
// same packages at the same version, source and integrity as package-lock.json. The two files are never
// byte-identical: the record has no root entry ("") and leaves out optional packages for other platforms
// (those may be missing; any other difference, missing or extra package means `npm ci`).
import { readFileSync } from 'node:fs';

const packages = (file) => JSON.parse(readFileSync(file, 'utf8')).packages ?? {};
let want;
let have;
try {
  want = packages('package-lock.json');
  have = packages('node_modules/.package-lock.json');
} catch {
  process.exit(1);
}
const same = (a, b) => ['version', 'resolved', 'integrity', 'link'].every((key) => a[key] === b[key]);
for (const [name, entry] of Object.entries(want)) {
  if (name === '') continue;
  if (name in have ? !same(entry, have[name]) : entry.optional !== true) process.exit(1);
}
for (const name of Object.keys(have)) if (!(name in want)) process.exit(1);
