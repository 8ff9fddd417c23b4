import type { App } from '../src/app';

interface Route {
  method: string;
  path: string;
}

/**
 * Every route as `printRoutes` lists them: `METHOD /path/:param` (HEAD, which Fastify adds to each GET,
 * left out). Routes that share a parameter position show both names: `/creators/:creatorId|:nickname`.
 */
export function routesOf(app: App): Route[] {
  const routes: Route[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const [, indent = '', segment = '', methods = ''] = match;
    const depth = indent.length / 4;
    prefixes[depth] = (prefixes[depth - 1] ?? '') + segment;
    prefixes.length = depth + 1;
    for (const method of methods.split(', ')) {
      if (method !== 'HEAD') routes.push({ method, path: prefixes[depth] ?? segment });
    }
  }
  return routes;
}
