import { Minus, Plus } from 'lucide-react';
import { useId } from 'react';

type QuantitySelectorProps = {
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
};

const stepButton =
  'inline-flex size-10 items-center justify-center rounded-lg bg-white text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40';

/** Minus and plus around the number, each disabled at its bound (spec §5). */
export function QuantitySelector({ value, min, max, onChange }: QuantitySelectorProps) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        Quantity
      </label>
      <div className="flex items-center gap-3">
        <button
          type="button"
          aria-label="Decrease quantity"
          aria-controls={id}
          className={stepButton}
          disabled={value <= min}
          onClick={() => onChange(value - 1)}
        >
          <Minus aria-hidden className="size-4" />
        </button>
        <output id={id} aria-live="polite" className="w-10 text-center text-xl font-semibold text-slate-900">
          {value}
        </output>
        <button
          type="button"
          aria-label="Increase quantity"
          aria-controls={id}
          className={stepButton}
          disabled={value >= max}
          onClick={() => onChange(value + 1)}
        >
          <Plus aria-hidden className="size-4" />
        </button>
      </div>
    </div>
  );
}
