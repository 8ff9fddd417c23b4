import { describe, expect, it } from 'vitest';
import { statsReport } from '../testing/fake-media';
import { formatBitrate, healthBetween, sendTotals, type SendTotals } from './broadcast-health';

const totals = (at: number, bytesSent: number, packetsSent: number, packetsLost: number): SendTotals => ({
  at,
  bytesSent,
  packetsSent,
  packetsLost,
});

describe('sendTotals', () => {
  it('adds the outgoing streams and the losses their receivers reported, over every connection', () => {
    const viewer1 = statsReport([
      { type: 'outbound-rtp', kind: 'video', bytesSent: 1_000, packetsSent: 10 },
      { type: 'outbound-rtp', kind: 'audio', bytesSent: 200, packetsSent: 4 },
      { type: 'remote-inbound-rtp', packetsLost: 2 },
      { type: 'inbound-rtp', bytesReceived: 9_999, packetsLost: 50 },
      { type: 'candidate-pair', bytesSent: 5_000 },
    ]);
    const viewer2 = statsReport([
      { type: 'outbound-rtp', bytesSent: 300, packetsSent: 6 },
      { type: 'remote-inbound-rtp', packetsLost: 1 },
      // A stream that has not sent yet has no counters.
      { type: 'outbound-rtp' },
    ]);

    expect(sendTotals([viewer1, viewer2], 1_234)).toEqual(totals(1_234, 1_500, 20, 3));
  });

  it('counts nothing without connections', () => {
    expect(sendTotals([], 5)).toEqual(totals(5, 0, 0, 0));
  });
});

describe('healthBetween', () => {
  it('gives the bitrate and the share of packets lost between two readings', () => {
    expect(healthBetween(totals(1_000, 10_000, 100, 1), totals(3_000, 260_000, 300, 11))).toEqual({
      bitsPerSecond: 1_000_000,
      lossRatio: 0.05,
    });
  });

  it('never goes negative when a connection was replaced and its counters started over', () => {
    const health = healthBetween(totals(0, 50_000, 500, 20), totals(2_000, 1_000, 10, 0));

    expect(health).toEqual({ bitsPerSecond: 0, lossRatio: 0 });
  });

  it('says nothing was sent when no time or no packet passed, and caps the loss at everything', () => {
    expect(healthBetween(totals(1_000, 0, 0, 0), totals(1_000, 500, 0, 3))).toEqual({
      bitsPerSecond: 0,
      lossRatio: 0,
    });
    expect(healthBetween(totals(0, 0, 0, 0), totals(1_000, 0, 2, 5)).lossRatio).toBe(1);
  });
});

describe('formatBitrate', () => {
  it('shows kilobits below a megabit and megabits from there', () => {
    expect(formatBitrate(0)).toBe('0 kbps');
    expect(formatBitrate(349_600)).toBe('350 kbps');
    expect(formatBitrate(999_000)).toBe('999 kbps');
    expect(formatBitrate(1_000_000)).toBe('1.0 Mbps');
    expect(formatBitrate(2_460_000)).toBe('2.5 Mbps');
  });
});
