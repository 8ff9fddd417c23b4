import { MessageCircle, Radio, Ticket, Wallet } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button';
import { FeatureGrid, type Feature } from '../../../components/ui/feature-grid';
import { paths } from '../../../config/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';

const highlights: Feature[] = [
  {
    title: 'Sell tickets',
    text: 'Set your price and how many seats you offer. Fans buy in a few clicks.',
    icon: Ticket,
  },
  {
    title: 'Stream live',
    text: 'Go live from your camera or share your screen, straight from the browser.',
    icon: Radio,
  },
  {
    title: 'Chat with fans',
    text: 'Every show comes with a live chat, so your audience is part of it.',
    icon: MessageCircle,
  },
  {
    title: 'Get paid',
    text: 'Ticket revenue goes to you, with clear fees and payouts right after the show.',
    icon: Wallet,
  },
];

export function HomeRoute() {
  useDocumentTitle('Go Live, Get Paid');
  return (
    <>
      <section className="relative overflow-hidden bg-slate-950 text-white">
        <div
          aria-hidden
          className="absolute inset-0 bg-[radial-gradient(ellipse_at_top,_var(--color-brand-700)_0%,_transparent_60%)] opacity-60"
        />
        <div className="relative mx-auto max-w-6xl px-4 py-24 text-center sm:px-6 sm:py-32 lg:px-8">
          <h1 className="text-5xl font-extrabold tracking-tight sm:text-7xl">Go Live, Get Paid</h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-300 sm:text-xl">
            You don&apos;t need millions, you need the right houndreds.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-4">
            <ButtonLink to={paths.register()} size="lg">
              Create an event
            </ButtonLink>
            <ButtonLink to={paths.events} variant="inverse" size="lg">
              Browse events
            </ButtonLink>
          </div>
        </div>
      </section>
      <section aria-labelledby="how-it-works" className="mx-auto max-w-6xl px-4 py-20 sm:px-6 lg:px-8">
        <h2 id="how-it-works" className="text-center text-3xl font-bold tracking-tight text-slate-900">
          Everything you need for a paid live show
        </h2>
        <FeatureGrid features={highlights} columns={4} />
      </section>
    </>
  );
}
