import { benchHttp } from './http';

/** `npm run bench`: figures, not pass/fail (the machines are shared and noisy). */
await benchHttp();
