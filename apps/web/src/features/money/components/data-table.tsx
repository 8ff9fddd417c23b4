import { useId, type ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

type DataTableProps = {
  title: string;
  columns: readonly string[];
  /** Said instead of the table while it has no rows. */
  empty: string;
  rows: ReactNode[];
};

export const cellClasses = 'px-4 py-3 whitespace-nowrap';

/**
 * A titled table of figures. On a narrow screen it keeps its columns and scrolls sideways inside its
 * card, which takes focus so that the keyboard can scroll it too.
 */
export function DataTable({ title, columns, empty, rows }: DataTableProps) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <Card className="overflow-hidden">
        {rows.length === 0 ? (
          <p className="p-6 text-center text-slate-600">{empty}</p>
        ) : (
          <div
            tabIndex={0}
            className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <table aria-labelledby={titleId} className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>
                  {columns.map((column) => (
                    <th key={column} scope="col" className={`${cellClasses} font-semibold`}>
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 text-slate-800">{rows}</tbody>
            </table>
          </div>
        )}
      </Card>
    </section>
  );
}
