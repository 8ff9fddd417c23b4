const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Dollars with two decimals (spec §9), e.g. `$1,234.50`. */
export function formatMoney(amount: number): string {
  return usd.format(amount);
}
