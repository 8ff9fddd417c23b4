import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/cn';

export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={cn('flex items-center justify-center text-brand-600', className)}>
      <LoaderCircle aria-hidden className="size-8 animate-spin" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

export function PageSpinner({ label }: { label?: string }) {
  return <Spinner label={label} className="min-h-[50vh]" />;
}
