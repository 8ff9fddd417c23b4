import { useEffect, useState } from 'react';
import { healthBetween, sendTotals, type BroadcastHealth } from '../lib/broadcast-health';

/** How often the studio's health line is refreshed. */
const HEALTH_INTERVAL_MS = 2000;

/** The outgoing bitrate and packet loss of a live studio, refreshed every 2 s; null until measured. */
export function useBroadcastHealth(
  isLive: boolean,
  stats: () => Promise<RTCStatsReport[]>,
): BroadcastHealth | null {
  const [health, setHealth] = useState<BroadcastHealth | null>(null);

  useEffect(() => {
    if (!isLive) return;
    let active = true;
    let previous = sendTotals([], performance.now());
    const measure = async () => {
      const reports = await stats().catch(() => []);
      if (!active) return;
      const current = sendTotals(reports, performance.now());
      setHealth(healthBetween(previous, current));
      previous = current;
    };
    void measure();
    const timer = setInterval(() => void measure(), HEALTH_INTERVAL_MS);
    return () => {
      active = false;
      clearInterval(timer);
      setHealth(null);
    };
  }, [isLive, stats]);

  return health;
}
