import { gzipSync } from 'node:zlib';
import type { Response } from 'playwright-core';
import { launchBrowser } from '../e2e/support/chromium';

/** What a first visit to one page costs in JavaScript: every script the browser fetched to render it. */
export interface FirstLoad {
  path: string;
  /** Scripts fetched, lazy chunks pulled in at start included. */
  scripts: number;
  /** Their decoded bodies gzipped at level 9: the figure the budget is written in. */
  jsGzipBytes: number;
  /** Their bodies as they travelled (compressed when the server compressed them). */
  jsWireBytes: number;
  /** The Content-Encoding each script arrived with ('identity' when none), without repeats. */
  encodings: string[];
}

export const FIRST_LOAD_PATHS = ['/', '/events'] as const;

/** Issue 10: what `/` and `/events` may cost a first visit in JavaScript, gzipped. */
export const FIRST_LOAD_BUDGET_BYTES = 120_000;

function isScript(response: Response): boolean {
  if (response.request().resourceType() === 'script') return true;
  // A modulepreload may be typed 'other' by the browser: the content type or the name decides.
  const type = response.headers()['content-type'] ?? '';
  return /javascript/.test(type) || /\.m?js(\?|$)/.test(new URL(response.url()).pathname);
}

async function wireBytes(response: Response): Promise<number> {
  const sizes = await response.request().sizes();
  if (sizes.responseBodySize > 0) return sizes.responseBodySize;
  const length = Number(response.headers()['content-length']);
  return Number.isFinite(length) ? length : (await response.body()).length;
}

/**
 * Opens `/` and `/events` of a running built server in headless Chromium, each in a fresh context (empty
 * cache, signed out), waits until the network is idle and sums the scripts it fetched. Chromium asks for
 * `gzip, deflate, br, zstd` (brotli is what it gets); `acceptEncoding` sends another header instead
 * (`'gzip'`: what a client without brotli gets). The encoding the server chose is recorded as received.
 */
export async function measureFirstLoad(
  base: string,
  { acceptEncoding }: { acceptEncoding?: string } = {},
): Promise<FirstLoad[]> {
  const browser = await launchBrowser();
  try {
    const loads: FirstLoad[] = [];
    for (const path of FIRST_LOAD_PATHS) {
      const context = await browser.newContext({
        baseURL: base,
        extraHTTPHeaders: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {},
      });
      const page = await context.newPage();
      const seen = new Map<string, Promise<{ gzip: number; wire: number; encoding: string }>>();
      page.on('response', (response) => {
        if (!response.ok() || !isScript(response) || seen.has(response.url())) return;
        seen.set(
          response.url(),
          (async () => {
            const body = await response.body();
            return {
              gzip: gzipSync(body, { level: 9 }).length,
              wire: await wireBytes(response),
              encoding: response.headers()['content-encoding'] ?? 'identity',
            };
          })(),
        );
      });
      await page.goto(path, { waitUntil: 'networkidle' });
      const scripts = await Promise.all(seen.values());
      await context.close();
      loads.push({
        path,
        scripts: scripts.length,
        jsGzipBytes: scripts.reduce((sum, script) => sum + script.gzip, 0),
        jsWireBytes: scripts.reduce((sum, script) => sum + script.wire, 0),
        encodings: [...new Set(scripts.map((script) => script.encoding))],
      });
    }
    return loads;
  } finally {
    await browser.close();
  }
}
