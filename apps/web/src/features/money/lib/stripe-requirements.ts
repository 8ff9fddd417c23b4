/**
 * What Stripe's requirement fields ask of a creator, in words: the first rule whose prefix a field
 * starts with names it; several fields of one kind (the day, month and year of a birth date) read as
 * one line. A field no rule knows is shown as Stripe names it.
 */
const REQUIREMENT_WORDS: Array<[prefix: string, words: string]> = [
  ['external_account', 'A bank account for your payouts'],
  ['individual.dob', 'Your date of birth'],
  ['individual.address', 'Your address'],
  ['individual.verification', 'An identity document'],
  ['individual.id_number', 'Your ID number'],
  ['individual.ssn_last_4', 'The last 4 digits of your SSN'],
  ['individual.first_name', 'Your name'],
  ['individual.last_name', 'Your name'],
  ['individual.email', 'Your contact details'],
  ['individual.phone', 'Your contact details'],
  ['business_type', 'Whether you are paid as an individual or a company'],
  ['business_profile', 'A few words about what you sell'],
  ['company', 'Your company details'],
  ['tos_acceptance', "Your acceptance of Stripe's terms"],
];

export function requirementsInWords(fields: string[]): string[] {
  const words = fields.map(
    (field) => REQUIREMENT_WORDS.find(([prefix]) => field.startsWith(prefix))?.[1] ?? field,
  );
  return [...new Set(words)];
}
