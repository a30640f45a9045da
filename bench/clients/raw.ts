// The floor client for any target: the hand-written stdio or node:http client, picked by transport.
import { rawHttp } from './raw-http.js';
import { rawStdio } from './raw-stdio.js';
import type { BenchClient } from './types.js';

/** The raw floor: `raw-stdio` for stdio targets, `raw-http` for HTTP targets. */
export const raw: BenchClient = {
  name: 'raw',
  supports: () => true,
  connect: (target) => (target.transport === 'stdio' ? rawStdio.connect(target) : rawHttp.connect(target)),
};
