import sharp from 'sharp';

/** Two colours of a diagonal gradient. */
export type Palette = readonly [from: string, to: string];

const POSTER = { width: 1200, height: 675 };
const HEADER = { width: 1980, height: 440 };
const AVATAR = { width: 400, height: 400 };
const TITLE_LINE_CHARACTERS = 24;

/**
 * Demo pictures drawn at seed time from SVG, so the repository carries no binary files: a gradient,
 * soft circles, and the text. Fonts are whatever the machine has (any sans-serif will do).
 */
export function posterImage(title: string, subtitle: string, palette: Palette): Promise<Buffer> {
  const lines = wrap(title, TITLE_LINE_CHARACTERS);
  const lineHeight = 78;
  const top = POSTER.height - 120 - lineHeight * (lines.length - 1);
  const text = lines
    .map((line, n) => `<tspan x="72" y="${top + n * lineHeight}">${escapeXml(line)}</tspan>`)
    .join('');
  return render(
    POSTER,
    palette,
    `<rect width="100%" height="${POSTER.height - top + lineHeight}" y="${top - lineHeight}" fill="#000" fill-opacity="0.18"/>
     <text font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-weight="700" font-size="68" fill="#fff">${text}</text>
     <text x="74" y="${POSTER.height - 56}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="30" fill="#fff" fill-opacity="0.85">${escapeXml(subtitle)}</text>`,
  );
}

export function headerImage(palette: Palette): Promise<Buffer> {
  return render(HEADER, palette, '');
}

export function avatarImage(initials: string, palette: Palette): Promise<Buffer> {
  return render(
    AVATAR,
    palette,
    `<text x="50%" y="56%" text-anchor="middle" dominant-baseline="middle" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-weight="700" font-size="150" fill="#fff">${escapeXml(initials)}</text>`,
  );
}

function render(
  size: { width: number; height: number },
  [from, to]: Palette,
  content: string,
): Promise<Buffer> {
  const { width, height } = size;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
      </linearGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#bg)"/>
    <circle cx="${width * 0.82}" cy="${height * 0.22}" r="${height * 0.42}" fill="#fff" fill-opacity="0.10"/>
    <circle cx="${width * 0.62}" cy="${height * 0.9}" r="${height * 0.3}" fill="#fff" fill-opacity="0.07"/>
    ${content}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

/** Breaks a title into lines of at most `width` characters, at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
