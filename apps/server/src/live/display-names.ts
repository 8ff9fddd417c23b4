const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const WHITESPACE = /\s+/gu;

/**
 * A display name as people read it: NFKC-normalised (full-width and styled letters become plain ones),
 * case-folded, without invisible characters (zero-width spaces and joiners), whitespace collapsed.
 * Two names with the same key look the same in a chat.
 */
export function lookalikeKey(name: string): string {
  return (
    name
      .normalize('NFKC')
      // Upper then lower case folds what lower case alone keeps apart (ß and SS, ς and σ).
      .toUpperCase()
      .toLowerCase()
      .normalize('NFKC')
      .replace(IGNORABLE, '')
      .replace(WHITESPACE, ' ')
      .trim()
  );
}
