import { describe, expect, it } from 'vitest';
import { spread, streamsOf, tierOf } from './edges';

/** The studio's offer, cut to what matters: its main picture, the overlay's section turned down, the sound. */
const OFFER = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 2',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'a=mid:0',
  'a=sendonly',
  'm=video 0 UDP/TLS/RTP/SAVPF 96',
  'a=mid:1',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=mid:2',
  'a=sendonly',
  '',
].join('\r\n');

describe('edges', () => {
  it("describes a publication's streams to an edge in the offer's order, with the room's codecs", () => {
    expect(streamsOf(OFFER)).toEqual([
      { type: 'video', mid: '0', mindex: 0, codec: 'vp8' },
      { type: 'video', mid: '1', mindex: 1, codec: 'vp8', disabled: true },
      { type: 'audio', mid: '2', mindex: 2, codec: 'opus' },
    ]);
    expect(streamsOf('v=0\r\n')).toEqual([]);
  });

  it("fills a show's Janus in order, each up to the limit, the rest on the origin", () => {
    expect([0, 99, 100, 199, 200].map((rank) => tierOf(rank, 100))).toEqual([0, 0, 1, 1, 2]);
    expect(spread(250, 3, 100)).toEqual([100, 100, 50]);
    expect(spread(30, 3, 100)).toEqual([30, 0, 0]);
    expect(spread(250, 2, 100)).toEqual([150, 100]);
    expect(spread(0, 1, 100)).toEqual([0]);
  });
});
