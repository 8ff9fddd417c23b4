import { useId, type ReactNode } from 'react';
import { Page } from '../../../components/layout/page';
import { Card } from '../../../components/ui/card';

/** Both legal documents took effect together (spec §2). */
const LAST_UPDATED = 'July 7, 2025';

export type LegalSection = { title: string; body: ReactNode };

type LegalPageProps = { title: string; intro: ReactNode; sections: LegalSection[] };

export function LegalPage({ title, intro, sections }: LegalPageProps) {
  const idPrefix = useId();
  return (
    <Page title={title} description={`Last updated: ${LAST_UPDATED}`} width="narrow">
      <Card className="p-6 sm:p-10">
        <div className="space-y-8 leading-relaxed text-slate-700">
          <div className="space-y-3">{intro}</div>
          {sections.map(({ title: heading, body }, index) => (
            <section key={heading} aria-labelledby={`${idPrefix}-${index}`} className="space-y-3">
              <h2 id={`${idPrefix}-${index}`} className="text-lg font-semibold text-slate-900">
                {index + 1}. {heading}
              </h2>
              {body}
            </section>
          ))}
        </div>
      </Card>
    </Page>
  );
}

export function LegalList({ items }: { items: ReactNode[] }) {
  return (
    <ul className="list-disc space-y-2 pl-6">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}
