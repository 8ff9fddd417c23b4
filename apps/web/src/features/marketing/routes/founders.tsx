import { BadgePercent, Globe, Headset, Lock, Rocket, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FeatureGrid, type Feature } from '../../../components/ui/feature-grid';
import { Modal } from '../../../components/ui/modal';
import { BRAND_NAME, SOCIAL_ACCOUNT } from '../../../config/site';
import { useDocumentTitle } from '../../../lib/use-document-title';

const perks: Feature[] = [
  {
    title: '0% platform fee on your first event',
    text: 'Keep every dollar of your first show, minus only the payment processor’s fee.',
    icon: BadgePercent,
  },
  {
    title: 'Locked lifetime preferred rate',
    text: `Founding partners keep a preferred platform rate for as long as they sell on ${BRAND_NAME}.`,
    icon: Lock,
  },
  {
    title: 'Global access',
    text: 'Sell tickets to fans anywhere in the world from day one.',
    icon: Globe,
  },
  {
    title: 'Early access',
    text: 'Try new features before anyone else and shape what we build next.',
    icon: Sparkles,
  },
  {
    title: 'Fast onboarding',
    text: 'We set up your account and your first event with you, so you can go live quickly.',
    icon: Rocket,
  },
  {
    title: 'VIP priority support',
    text: 'A direct line to our team, with your questions answered first.',
    icon: Headset,
  },
];

const anchors = { perks: 'perks', apply: 'apply' } as const;

function scrollToAnchor(id: string) {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

export function FoundersRoute() {
  useDocumentTitle('Become a Founding Partner');
  const [isApplyOpen, setApplyOpen] = useState(false);

  return (
    <>
      <section className="bg-slate-950 text-white">
        <div className="mx-auto max-w-4xl px-4 py-24 text-center sm:px-6 lg:px-8">
          <p className="text-sm font-semibold tracking-widest text-brand-400 uppercase">
            Founding Partner Program
          </p>
          <h1 className="mt-4 text-4xl font-extrabold tracking-tight sm:text-6xl">
            Become a Founding Partner
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-300">
            We are opening {BRAND_NAME} to a small group of creators before everyone else. Join early, help
            shape the platform, and keep the best terms we will ever offer.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-4">
            <Button size="lg" onClick={() => scrollToAnchor(anchors.apply)}>
              Apply Now
            </Button>
            <Button size="lg" variant="inverse" onClick={() => scrollToAnchor(anchors.perks)}>
              Learn More
            </Button>
          </div>
        </div>
      </section>

      <section
        id={anchors.perks}
        aria-labelledby="perks-title"
        className="mx-auto max-w-6xl px-4 py-20 sm:px-6 lg:px-8"
      >
        <h2 id="perks-title" className="text-center text-3xl font-bold tracking-tight text-slate-900">
          What founding partners get
        </h2>
        <FeatureGrid features={perks} columns={3} />
      </section>

      <section id={anchors.apply} aria-labelledby="apply-title" className="bg-white">
        <div className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6 lg:px-8">
          <h2 id="apply-title" className="text-3xl font-bold tracking-tight text-slate-900">
            Apply for early access
          </h2>
          <p className="mt-4 text-slate-600">
            Tell us about you and the live shows you want to run. Places in the founding group are limited.
          </p>
          <Button size="lg" className="mt-8" onClick={() => setApplyOpen(true)}>
            Apply
          </Button>
        </div>
      </section>

      <Modal
        open={isApplyOpen}
        onClose={() => setApplyOpen(false)}
        title="Application form coming soon"
        role="alertdialog"
      >
        <p className="text-slate-600">
          The application form is coming soon. Until then, apply by sending a direct message to{' '}
          <a
            href={SOCIAL_ACCOUNT.url}
            target="_blank"
            rel="noreferrer"
            className="font-semibold text-brand-700 hover:text-brand-600"
          >
            {SOCIAL_ACCOUNT.handle}
          </a>{' '}
          on {SOCIAL_ACCOUNT.network}.
        </p>
        <div className="flex justify-end">
          <Button onClick={() => setApplyOpen(false)}>OK</Button>
        </div>
      </Modal>
    </>
  );
}
