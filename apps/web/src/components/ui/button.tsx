import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';

type Variant = 'primary' | 'secondary' | 'inverse' | 'danger';
type Size = 'sm' | 'md' | 'lg';
type Look = { variant?: Variant; size?: Size };

const variants: Record<Variant, string> = {
  primary: 'bg-brand-600 text-white shadow-sm hover:bg-brand-700 focus-visible:outline-brand-600',
  secondary:
    'bg-white text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-brand-600',
  inverse:
    'bg-white/10 text-white ring-1 ring-inset ring-white/20 hover:bg-white/20 focus-visible:outline-white',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700 focus-visible:outline-red-600',
};

const sizes: Record<Size, string> = {
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2.5 text-sm',
  lg: 'px-6 py-3 text-base',
};

function buttonClasses({ variant = 'primary', size = 'md' }: Look, className?: string) {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60',
    variants[variant],
    sizes[size],
    className,
  );
}

export function Button({
  variant,
  size,
  className,
  type = 'button',
  ...props
}: ComponentProps<'button'> & Look) {
  return <button type={type} className={buttonClasses({ variant, size }, className)} {...props} />;
}

/** A link that looks like a button, for actions that navigate. */
export function ButtonLink({ variant, size, className, ...props }: ComponentProps<typeof Link> & Look) {
  return <Link className={buttonClasses({ variant, size }, className)} {...props} />;
}

/** A link off the app (a payment provider's page) that looks like a button. */
export function ButtonAnchor({ variant, size, className, ...props }: ComponentProps<'a'> & Look) {
  return <a className={buttonClasses({ variant, size }, className)} {...props} />;
}
