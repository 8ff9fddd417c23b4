import { Share2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { notify } from '../../../lib/notify';

type ShareButtonProps = { title: string; text: string; url: string; className?: string };

/**
 * Shares the page through the device's own share sheet (Web Share API) where there is one; elsewhere
 * copies the link, for the user to paste wherever they share things.
 */
export function ShareButton({ title, text, url, className }: ShareButtonProps) {
  const share = async () => {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text, url });
      } catch (error) {
        // Closing the share sheet is a choice, not a failure.
        if (!(error instanceof DOMException && error.name === 'AbortError')) {
          notify('Could not share the link', 'error');
        }
      }
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      notify('Link copied', 'success');
    } catch {
      notify('Could not copy the link', 'error');
    }
  };

  return (
    <Button variant="secondary" onClick={() => void share()} className={className}>
      <Share2 aria-hidden className="size-4" />
      Share
    </Button>
  );
}
