/**
 * A clock a test moves, handed to `oauth(config, { clock })`: token expiry and refresh are judged on it, so a
 * test ages a token by `advance()` instead of sleeping until it expires. Its `sleep()` (the device login's
 * poll interval) does not wait either: it moves the clock by the time asked, after a turn of the event loop
 * (so the poll still makes its real request in between), and records each wait in `sleeps`.
 */
import { setImmediate as turn } from 'node:timers/promises';
import type { Clock } from '../../src/internal/clock.js';

export interface TestClock extends Clock {
  /** Moves the clock on by `ms`. */
  advance(ms: number): void;
  /** Every `sleep(ms)` asked for, in order. */
  readonly sleeps: number[];
}

/** A clock that starts at the wall time now (servers' tokens are stamped with real time) and then stands. */
export function testClock(start = Date.now()): TestClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      sleeps.push(ms);
      signal?.throwIfAborted();
      await turn();
      signal?.throwIfAborted();
      now += ms;
    },
  };
}
