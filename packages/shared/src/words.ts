/**
 * A count and its noun, in the singular for one: "1 ticket", "3 tickets". The one way the product
 * writes a count, in its screens and its mail, never "ticket(s)".
 */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}
