import { useId, type ReactNode } from 'react';
import { Card } from './card';
import { FallbackImage } from './fallback-image';

type MediaCardProps = {
  title: string;
  /** The cover on top; the card has none when this is absent. */
  image?: { src: string | null; alt: string };
  /** Sits on the cover's corner, or above the title without a cover. */
  badge?: ReactNode;
  children?: ReactNode;
  /** Links and buttons along the bottom edge. */
  actions?: ReactNode;
  /** 2 under the screen's h1; 3 where the list has a heading of its own (a creator's "Events"). */
  headingLevel?: 2 | 3;
};

/**
 * The one card every event-like list uses (upcoming events, My Events, tickets, creator pages): cover
 * image with a placeholder, a badge, the title, the card's own details, then its actions. An article
 * named by its title, so each card can be found by the event it shows.
 */
export function MediaCard({ title, image, badge, children, actions, headingLevel = 2 }: MediaCardProps) {
  const titleId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <Card className="flex h-full flex-col overflow-hidden">
      <article aria-labelledby={titleId} className="flex flex-1 flex-col">
        {image ? (
          <div className="relative">
            <FallbackImage src={image.src} alt={image.alt} className="aspect-video w-full" />
            {badge ? <div className="absolute top-3 right-3">{badge}</div> : null}
          </div>
        ) : null}
        <div className="flex flex-1 flex-col gap-3 p-5">
          {!image && badge ? <div>{badge}</div> : null}
          <Heading id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </Heading>
          {children}
          {actions ? <div className="mt-auto flex flex-wrap items-center gap-2 pt-2">{actions}</div> : null}
        </div>
      </article>
    </Card>
  );
}
