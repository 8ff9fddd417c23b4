import type { LucideIcon } from 'lucide-react';
import { Card } from './card';

export type Feature = { title: string; text: string; icon: LucideIcon };

/** A grid of icon cards, as the marketing pages list what the product offers. */
export function FeatureGrid({ features, columns }: { features: Feature[]; columns: 3 | 4 }) {
  return (
    <ul className={`mt-12 grid gap-6 sm:grid-cols-2 ${columns === 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3'}`}>
      {features.map(({ title, text, icon: Icon }) => (
        <li key={title}>
          <Card className="h-full p-6">
            <Icon aria-hidden className="size-8 text-brand-600" />
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
            <p className="mt-2 text-sm text-slate-600">{text}</p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
