import { benchCreatorUpload } from './live/creator-upload';
import { benchJanusFirstFrame } from './live/first-frame';
import { benchJanusFanout } from './live/janus-fanout';
import { benchJanusReplay } from './live/replays';
import { assertInMediaNamespace } from './live/services';
import { benchSeveralJanus } from './live/several-janus';

/**
 * `npm run bench`'s live part (issue 7), inside scripts/in-netns.sh: a fan's first frame through Janus
 * (bench/stream.ts has it peer to peer), the creator's upload and CPU peer to peer vs through Janus,
 * then Janus's fan-out to light subscribers, one show's viewers over one Janus against three and a
 * Janus killed under a show, and a show's replay made from Janus's recording. `tsx bench/live.ts
 * fanout` (or `firstframe`, `upload`, `several`, `replays`) runs one of them.
 */
const parts = process.argv.slice(2);
const runs = (part: string) => parts.length === 0 || parts.includes(part);

assertInMediaNamespace();
const startedAt = performance.now();
if (runs('firstframe')) await benchJanusFirstFrame();
if (runs('upload')) await benchCreatorUpload();
if (runs('fanout')) await benchJanusFanout();
if (runs('several')) await benchSeveralJanus();
if (runs('replays')) await benchJanusReplay();
console.info(`\nLive benches took ${Math.round((performance.now() - startedAt) / 1000)} s`);
