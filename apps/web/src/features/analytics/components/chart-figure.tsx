import { useId, type ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

type ChartFigureProps = {
  title: string;
  /** What the chart shows, in a sentence under its title. */
  caption: string;
  /** Said instead of the chart while there is nothing to draw. */
  empty: string | null;
  /** The chart, drawn for the eye: screen readers read `table` instead. */
  chart: ReactNode;
  /**
   * Every figure of the chart, as a table only screen readers see (inside a box hidden so: a table sizes
   * to its rows whatever its own height says).
   */
  table: { columns: readonly string[]; rows: readonly (readonly string[])[] };
};

/**
 * A titled chart of the analytics with its text alternative: the caption, and the chart's figures in a
 * visually hidden table. On a phone it takes the screen's width.
 */
export function ChartFigure({ title, caption, empty, chart, table }: ChartFigureProps) {
  const titleId = useId();
  const captionId = useId();
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <Card className="p-4 sm:p-6">
        {empty !== null ? (
          <p className="py-6 text-center text-slate-600">{empty}</p>
        ) : (
          <figure aria-labelledby={captionId} className="space-y-3">
            <div aria-hidden className="h-64 w-full">
              {chart}
            </div>
            <figcaption id={captionId} className="text-sm text-slate-600">
              {caption}
            </figcaption>
            <div className="sr-only">
              <table>
                <caption>{title}</caption>
                <thead>
                  <tr>
                    {table.columns.map((column) => (
                      <th key={column} scope="col">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {/* In the chart's order, which never changes: two rows may read alike (samples a
                      few seconds apart show the same minute). */}
                  {table.rows.map(([head, ...cells], at) => (
                    <tr key={at}>
                      <th scope="row">{head}</th>
                      {cells.map((cell, column) => (
                        <td key={table.columns[column + 1]}>{cell}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </figure>
        )}
      </Card>
    </section>
  );
}
