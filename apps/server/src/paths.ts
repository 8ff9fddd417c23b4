import { fileURLToPath } from 'node:url';

// This file must stay directly in src/: the same relative URL then reaches the package root both from
// src/paths.ts (tsx) and from the bundled dist/server.js.
const serverRoot = new URL('..', import.meta.url);

export const MIGRATIONS_DIR = fileURLToPath(new URL('drizzle', serverRoot));
export const WEB_DIST_DIR = fileURLToPath(new URL('../web/dist', serverRoot));
