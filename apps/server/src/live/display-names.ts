import unhomoglyph from 'unhomoglyph';

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const MARKS = /\p{M}/gu;
const WHITESPACE = /\s+/gu;

/**
 * How a display name reads, twice: in lower case and in upper case, each mapped through Unicode's
 * confusables (UTS #39) — which map each case on its own: Cyrillic "М" reads as "M" but "м" as
 * nothing Latin, while a Greek "ν" reads as "v" and its capital as "N" — so a name meets another
 * whichever case each is written in.
 */
export type NameKey = readonly [lower: string, upper: string];

/**
 * A display name as people read it: compatibility-decomposed (full-width and styled letters become
 * plain ones) without accents or invisible characters (zero-width spaces and joiners), letters of other
 * scripts drawn like Latin ones taken for them (Cyrillic "а" for "a", "rn" for "m"), whitespace
 * collapsed. Upper then lower case folds what lower case alone keeps apart (ß and SS, ς and σ).
 */
export function lookalikeKey(name: string): NameKey {
  const plain = name.normalize('NFKD').replace(MARKS, '').replace(IGNORABLE, '').replace(WHITESPACE, ' ');
  const upper = plain.toUpperCase();
  return [unhomoglyph(upper.toLowerCase()).trim(), unhomoglyph(upper).trim()];
}

/** Whether two names look the same in a chat. */
export const looksAlike = (one: NameKey, other: NameKey): boolean =>
  one[0] === other[0] || one[1] === other[1];
