import type { EventAnalytics } from '@stagedoor/shared/analytics';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount, formatWallTime } from '../../../lib/format';
import { ChartFigure } from './chart-figure';
import { AXIS, BRAND_COLOR, GRID_COLOR } from './chart-style';

/** `every minute`, `every 5 minutes`, `every 2 seconds`: how often the viewers were counted. */
function everyInterval(seconds: number): string {
  if (seconds === 60) return 'every minute';
  if (seconds % 60 === 0) return `every ${seconds / 60} minutes`;
  return `every ${seconds} seconds`;
}

/** The viewers of the show as it went, one point a sample. */
export function ViewersOverTime({ viewers, timeZone }: Pick<EventAnalytics, 'viewers' | 'timeZone'>) {
  const points = viewers.samples.map((sample) => ({
    viewers: sample.viewers,
    label: formatWallTime(sample.at, timeZone),
  }));
  const every = everyInterval(viewers.sampleIntervalS);
  return (
    <ChartFigure
      title="Viewers during the show"
      caption={`Viewers counted ${every} while the show was live (times in ${timeZone} time): at most ${formatCount(viewers.peak)}, ${viewers.average.toFixed(1)} on average.`}
      empty={
        points.length === 0 ? `No viewers yet: they are counted ${every} while your show is live.` : null
      }
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart
            data={points}
            margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid vertical={false} stroke={GRID_COLOR} />
            <XAxis dataKey="label" {...AXIS} interval="preserveStartEnd" minTickGap={24} />
            <YAxis allowDecimals={false} {...AXIS} width={32} />
            <Tooltip />
            <Area
              type="monotone"
              dataKey="viewers"
              name="Viewers"
              stroke={BRAND_COLOR}
              fill={BRAND_COLOR}
              fillOpacity={0.15}
              strokeWidth={2}
              isAnimationActive={false}
            />
          </AreaChart>
        </ResponsiveContainer>
      }
      table={{
        columns: ['Time', 'Viewers'],
        rows: viewers.samples.map((sample) => [
          formatWallTime(sample.at, timeZone, { withDay: true }),
          formatCount(sample.viewers),
        ]),
      }}
    />
  );
}
