// Fails when the server's modules (apps/server/src/modules/* and live/) depend on each other in a
// circle: each module may lean on others only one way (ARCHITECTURE.md). import-x/no-cycle sees files;
// this sees modules. Tests are left out: they may set up their world from anywhere.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(import.meta.dirname, '../apps/server/src');
const modules = [...readdirSync(path.join(SRC, 'modules')).map((name) => `modules/${name}`), 'live'];
const moduleOf = (file) => modules.find((module) => file.startsWith(path.join(SRC, module) + path.sep));

/** module → the modules its files import, each with one import that shows it. */
const uses = new Map(modules.map((module) => [module, new Map()]));
for (const module of modules) {
  const files = readdirSync(path.join(SRC, module), { recursive: true })
    // A table's foreign keys name other modules' tables (`*.tables.ts`): that ties rows, not code.
    .filter((file) => /\.tsx?$/.test(file) && !/\.(test|tables)\.tsx?$/.test(file))
    .map((file) => path.join(SRC, module, file));
  for (const file of files) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const used = moduleOf(path.resolve(path.dirname(file), specifier));
      if (used && used !== module && !uses.get(module).has(used)) {
        uses.get(module).set(used, `${path.relative(SRC, file)} → ${specifier}`);
      }
    }
  }
}

/** Depth-first search: a module met again while its own dependencies are being walked closes a cycle. */
const cycles = [];
const state = new Map();
function walk(module, trail) {
  state.set(module, 'open');
  for (const used of uses.get(module).keys()) {
    if (state.get(used) === 'open') cycles.push([...trail.slice(trail.indexOf(used)), module, used]);
    else if (!state.has(used)) walk(used, [...trail, module]);
  }
  state.set(module, 'done');
}
for (const module of modules) if (!state.has(module)) walk(module, []);

for (const cycle of cycles) {
  console.error(`Module cycle: ${cycle.join(' → ')}`);
  for (let i = 0; i < cycle.length - 1; i++) console.error(`  ${uses.get(cycle[i]).get(cycle[i + 1])}`);
}
process.exit(cycles.length > 0 ? 1 : 0);
