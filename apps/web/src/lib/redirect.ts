const PROBE_ORIGIN = 'https://stagedoor.invalid';

/**
 * The `redirect` query value if it is a path of this site, else null. The value is resolved the
 * way a browser would resolve it, so `//host`, `/\host` and tab or newline tricks that turn into
 * another origin are refused: a crafted login link cannot send a fresh session elsewhere.
 */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//')) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
