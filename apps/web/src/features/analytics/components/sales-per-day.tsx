import type { EventAnalytics } from '@stagedoor/shared/analytics';
import { counted } from '@stagedoor/shared/words';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatMoney, formatShortDate } from '../../../lib/format';
import { ChartFigure } from './chart-figure';
import { AXIS, BRAND_COLOR, GRID_COLOR } from './chart-style';

const dayOfMonth = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
/** A calendar day (`YYYY-MM-DD`) as its midnight in UTC, where the formats read it back as that day. */
const midnightOf = (day: string) => `${day}T00:00:00Z`;

/** Tickets sold each day, as bars, with the revenue in each day's tooltip and the table. */
export function SalesPerDay({ sales, timeZone }: Pick<EventAnalytics, 'sales' | 'timeZone'>) {
  const days = sales.perDay.map((day) => ({
    ...day,
    label: dayOfMonth.format(new Date(midnightOf(day.day))),
  }));
  return (
    <ChartFigure
      title="Sales per day"
      caption={`Tickets sold each day (days in ${timeZone} time): ${counted(sales.tickets, 'ticket')} for ${formatMoney(sales.revenue)} in all.`}
      empty={days.length === 0 ? 'No tickets sold yet.' : null}
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid vertical={false} stroke={GRID_COLOR} />
            <XAxis dataKey="label" {...AXIS} interval="preserveStartEnd" minTickGap={12} />
            <YAxis allowDecimals={false} {...AXIS} width={32} />
            <Tooltip
              cursor={{ fill: GRID_COLOR }}
              formatter={(tickets, _name, { payload }) => [
                `${formatCount(Number(tickets))} (${formatMoney((payload as { revenue: number }).revenue)})`,
                'Tickets',
              ]}
            />
            <Bar
              dataKey="tickets"
              name="Tickets"
              fill={BRAND_COLOR}
              radius={[4, 4, 0, 0]}
              maxBarSize={48}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      }
      table={{
        columns: ['Day', 'Tickets', 'Revenue'],
        rows: sales.perDay.map((day) => [
          formatShortDate(midnightOf(day.day), 'UTC'),
          formatCount(day.tickets),
          formatMoney(day.revenue),
        ]),
      }}
    />
  );
}
