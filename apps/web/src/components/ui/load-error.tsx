import { RotateCw, TriangleAlert } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { Card } from './card';

type LoadErrorProps = {
  /** What could not be loaded, in the screen's words (the server's reason when it gave one). */
  message: string;
  /** Asks again: the query's `refetch`. */
  onRetry: () => void;
  /** A retry is under way: the button waits for it. */
  isRetrying?: boolean;
  className?: string;
};

/**
 * A read that failed, said as such, with the way to ask again. Every screen shows this instead of an
 * empty list or a zero, which would tell the user something untrue.
 */
export function LoadError({ message, onRetry, isRetrying = false, className }: LoadErrorProps) {
  return (
    <Card role="alert" className={cn('flex flex-col items-center gap-4 p-8 text-center', className)}>
      <TriangleAlert aria-hidden className="size-8 text-red-600" />
      <h2 className="font-medium text-red-700">{message}</h2>
      <Button variant="secondary" onClick={onRetry} disabled={isRetrying}>
        <RotateCw aria-hidden className={cn('size-4', isRetrying && 'animate-spin')} />
        {isRetrying ? 'Trying again...' : 'Try again'}
      </Button>
    </Card>
  );
}
