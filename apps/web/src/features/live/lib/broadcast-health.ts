/** What the studio's connections have sent so far, added over every connection. */
export type SendTotals = { at: number; bytesSent: number; packetsSent: number; packetsLost: number };

/** The outgoing rate and loss between two readings. */
export type BroadcastHealth = { bitsPerSecond: number; lossRatio: number };

/**
 * Adds up the statistics of every connection: bytes and packets of the outgoing RTP streams, and the
 * packets their receivers (each viewer, or the media server) reported lost.
 */
export function sendTotals(reports: RTCStatsReport[], at: number): SendTotals {
  const totals = { at, bytesSent: 0, packetsSent: 0, packetsLost: 0 };
  for (const report of reports) {
    report.forEach(
      (stats: { type: string; bytesSent?: number; packetsSent?: number; packetsLost?: number }) => {
        if (stats.type === 'outbound-rtp') {
          totals.bytesSent += stats.bytesSent ?? 0;
          totals.packetsSent += stats.packetsSent ?? 0;
        } else if (stats.type === 'remote-inbound-rtp') {
          totals.packetsLost += stats.packetsLost ?? 0;
        }
      },
    );
  }
  return totals;
}

/** The health between two readings; counters that went down (a connection replaced) count from zero. */
export function healthBetween(before: SendTotals, after: SendTotals): BroadcastHealth {
  const seconds = (after.at - before.at) / 1000;
  const delta = (key: keyof Omit<SendTotals, 'at'>) => Math.max(0, after[key] - before[key]);
  const sent = delta('packetsSent');
  return {
    bitsPerSecond: seconds > 0 ? (delta('bytesSent') * 8) / seconds : 0,
    lossRatio: sent > 0 ? Math.min(1, delta('packetsLost') / sent) : 0,
  };
}

export function formatBitrate(bitsPerSecond: number): string {
  if (bitsPerSecond >= 1_000_000) return `${(bitsPerSecond / 1_000_000).toFixed(1)} Mbps`;
  return `${Math.round(bitsPerSecond / 1000)} kbps`;
}
