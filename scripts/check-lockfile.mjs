// Fails when package-lock.json cannot install the whole tree on every platform. `npm ci` checks only the
// packages the root reaches; behind a workspace (apps/web → @tailwindcss/vite → @tailwindcss/oxide) a
// dependency can be missing from the lockfile and nothing notices (npm/cli#9977), and an optional platform
// binary missing there is skipped without a word on the platform that needs it (npm/cli#4828). Here every
// locked package's dependencies, optional ones included, must have an entry where Node would look for them,
// and each workspace's package.json must list what the lockfile recorded for it. Offline; reads files only.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const { packages } = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const KINDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const problems = [];
const sorted = (deps = {}) => JSON.stringify(Object.entries(deps).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Where Node looks for `name` from the package at `location`: its node_modules, then each parent's. */
function resolve(location, name) {
  for (let dir = location; ;) {
    const candidate = (dir ? `${dir}/` : '') + `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent >= 0 ? dir.slice(0, parent) : '';
  }
}

for (const [location, entry] of Object.entries(packages)) {
  if (entry.link) continue;
  // The root and the workspaces: their package.json, not the lockfile's copy of it, is what npm installs.
  const project = !location.includes('node_modules/');
  const manifest = project
    ? JSON.parse(readFileSync(path.join(ROOT, location, 'package.json'), 'utf8'))
    : entry;
  for (const kind of KINDS) {
    if (project && sorted(manifest[kind]) !== sorted(entry[kind])) {
      problems.push(
        `${location || '(root)'}/package.json ${kind} differ from what package-lock.json recorded`,
      );
    }
    for (const [name, spec] of Object.entries(manifest[kind] ?? {})) {
      if (kind === 'peerDependencies' && manifest.peerDependenciesMeta?.[name]?.optional) continue;
      if (!resolve(location, name)) problems.push(`${location || '(root)'} → ${name}@${spec} has no entry`);
    }
  }
}

for (const problem of problems) console.error(`package-lock.json: ${problem}`);
if (problems.length > 0) {
  console.error(
    'Update it with `npm install --package-lock-only`. A dependency behind a workspace that stays missing\n' +
      'is left alone by npm (npm/cli#9977): add the package that depends on it to the root devDependencies at\n' +
      'its locked version, run `npm install --package-lock-only`, take it out again and run it once more.',
  );
}
process.exit(problems.length > 0 ? 1 : 0);
