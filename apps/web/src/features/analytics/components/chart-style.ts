/** The charts' colours: the brand's (index.css `--color-brand-600`), and slate-200 for their grids. */
export const BRAND_COLOR = 'var(--color-brand-600)';
export const GRID_COLOR = '#e2e8f0';

/** Axes as every chart draws them: small slate labels, no lines or ticks. */
export const AXIS = {
  tickLine: false,
  axisLine: false,
  tick: { fontSize: 12, fill: '#475569' },
} as const;
