import { startBuiltServer } from '../e2e/support/server';
import { measureFirstFrames, printFirstFrames } from './live/first-frame';
import { complaints } from './live/services';

/**
 * A fan's wait for the picture peer to peer, on loopback: a late joiner's (the show live when the page
 * opens) next to a waiting fan's (the page open when the creator starts). `tsx bench/live.ts
 * firstframe` measures the same through Janus.
 */
const server = await startBuiltServer();
try {
  printFirstFrames(await measureFirstFrames(server.baseURL, 'peer to peer (loopback)'));
  console.info(await complaints('p2p', server));
} finally {
  await server.stop();
}
