import { startBuiltServer } from '../e2e/support/server';
import { measureFirstFrames, printFirstFrames } from './live/first-frame';
import { benchP2pReplay } from './live/replays';
import { complaints } from './live/services';

/**
 * A fan's wait for the picture peer to peer, on loopback: a late joiner's (the show live when the page
 * opens) next to a waiting fan's (the page open when the creator starts). `tsx bench/live.ts
 * firstframe` measures the same through Janus. Then a show's replay made from the studio's own recording
 * (`tsx bench/live.ts replays` through Janus). `tsx bench/stream.ts firstframe` (or `replays`) runs one.
 */
const parts = process.argv.slice(2);
const runs = (part: string) => parts.length === 0 || parts.includes(part);

if (runs('firstframe')) {
  const server = await startBuiltServer();
  try {
    printFirstFrames(await measureFirstFrames(server.baseURL, 'peer to peer (loopback)'));
    console.info(await complaints('p2p', server));
  } finally {
    await server.stop();
  }
}
if (runs('replays')) await benchP2pReplay();
