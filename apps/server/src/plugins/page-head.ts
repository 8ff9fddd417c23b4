export const SITE_NAME = 'Stagedoor';

/** What a shared link unfurls into: the page's title, a line about it and its picture. */
export interface PagePreview {
  title: string;
  description: string;
  /** Absolute, as social networks fetch it from elsewhere; null when the page has no picture. */
  image: string | null;
  /** The page's canonical absolute address. */
  url: string;
  type: 'website' | 'profile';
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

/**
 * index.html with the preview's tags in its head, in place of the app's own title and description:
 * crawlers read this HTML and never run the app.
 */
export function withPreview(html: string, preview: PagePreview): string {
  const meta = (key: 'name' | 'property', name: string, content: string) =>
    `<meta ${key}="${name}" content="${escapeHtml(content)}" />`;
  const tags = [
    `<title>${escapeHtml(`${preview.title} · ${SITE_NAME}`)}</title>`,
    meta('name', 'description', preview.description),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:type', preview.type),
    meta('property', 'og:title', preview.title),
    meta('property', 'og:description', preview.description),
    meta('property', 'og:url', preview.url),
    ...(preview.image ? [meta('property', 'og:image', preview.image)] : []),
    meta('name', 'twitter:card', preview.image ? 'summary_large_image' : 'summary'),
  ];
  return html
    .replace(/<title>[\s\S]*?<\/title>/i, '')
    .replace(/<meta\s+name="description"[^>]*>/i, '')
    .replace(/<\/head>/i, () => `${tags.join('\n')}\n</head>`);
}

/** index.html naming `modules` (site-relative paths of JavaScript modules) for the browser to fetch at once. */
export function withModulePreloads(html: string, modules: readonly string[]): string {
  if (modules.length === 0) return html;
  const links = modules.map((file) => `<link rel="modulepreload" crossorigin href="${escapeHtml(file)}" />`);
  return html.replace(/<\/head>/i, () => `${links.join('\n')}\n</head>`);
}
