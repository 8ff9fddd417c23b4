// C0 controls other than tab, line feed and carriage return, and DEL: nobody types them, PostgreSQL
// refuses NUL in text outright, and the others would reach pages, mail and logs.
// Half of a surrogate pair has no character to stand for, and no encoding can store it.
const NOT_TEXT =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isValidText = (text: string) => !NOT_TEXT.test(text);

/**
 * The path of the first text in `input` (a string, or one in an object's keys or values at any depth)
 * holding a control character or half a surrogate pair, or null when all of it is valid text. Walked
 * without recursion: a body of nested arrays a million deep must not overflow the stack.
 */
export function invalidTextPath(input: unknown): string[] | null {
  // Each entry links to its parent's, so a deep body is not copied once per level to name a path.
  interface Entry {
    value: unknown;
    key: string;
    parent: Entry | null;
  }
  const pathOf = (entry: Entry | null): string[] => {
    const path: string[] = [];
    for (let at = entry; at?.parent; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const pending: Entry[] = [{ value: input, key: '', parent: null }];
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    const { value } = entry;
    if (typeof value === 'string') {
      if (!isValidText(value)) return pathOf(entry);
    } else if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (!isValidText(key)) return pathOf(entry);
        pending.push({ value: item, key, parent: entry });
      }
    }
  }
  return null;
}

/** What a field whose text holds such characters is told. */
export const invalidTextMessage = (field: string) => `${field} contains characters that are not allowed`;
