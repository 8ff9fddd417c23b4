import type { Event } from '@stagedoor/shared/events';
import { imageUrls } from '@stagedoor/shared/images';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/avatar';
import { paths } from '../../../config/paths';
import { useCreatorPortrait } from '../api/stream';

/** The stream page's own header (the top navigation is hidden there): back link, creator, event. */
export function StreamHeader({ event }: { event: Event }) {
  const { creator } = event;
  const portrait = useCreatorPortrait(event.creatorId);

  return (
    <header className="border-b border-white/10 bg-slate-950">
      <div className="mx-auto flex w-full max-w-7xl items-center gap-4 px-4 py-4 sm:px-6 lg:px-8">
        <Link
          to={paths.creatorProfile(creator.nickname)}
          aria-label="Back to creator page"
          className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-medium text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-white"
        >
          <ArrowLeft aria-hidden className="size-4" />
          Back
        </Link>
        <Avatar
          src={portrait && imageUrls.profile('creator', portrait)}
          firstName={creator.firstName}
          lastName={creator.lastName}
          className="size-11 text-sm ring-2"
        />
        <div className="min-w-0">
          <h1 className="truncate text-xl font-bold text-white">{event.name}</h1>
          <p className="truncate text-sm text-slate-300">{`${creator.firstName} ${creator.lastName}`}</p>
        </div>
      </div>
    </header>
  );
}
