/** The reconnect policy of the HTTP transport, as a pure function and class with a pinned random source. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_RECONNECT_MS,
  madeProgress,
  RECONNECT_CAP_MS,
  RECONNECT_FLOOR_MS,
  Reconnect,
  reconnectDelay,
  STABLE_STREAM_MS,
} from '../../../src/transport/http/backoff.js';

const low = () => 0;
const high = () => 0.999_999;
const mid = () => 0.5;

describe('reconnectDelay', () => {
  it('waits the floor even when the server says retry: 0', () => {
    assert.equal(reconnectDelay(0, 0, high), RECONNECT_FLOOR_MS);
    assert.equal(reconnectDelay(0, 1, low), RECONNECT_FLOOR_MS);
  });

  it('honours the server retry exactly on the first reconnect, capped', () => {
    assert.equal(reconnectDelay(0, 500, low), 500);
    assert.equal(reconnectDelay(0, 500, high), 500);
    assert.equal(reconnectDelay(0, 10 * RECONNECT_CAP_MS, mid), RECONNECT_CAP_MS);
  });

  it('uses the default without a server retry', () => {
    assert.equal(reconnectDelay(0, undefined, mid), DEFAULT_RECONNECT_MS);
  });

  it('grows exponentially with equal jitter, never below the first wait nor above the cap', () => {
    const lows = [0, 1, 2, 3, 4, 5].map((n) => reconnectDelay(n, 0, low));
    const highs = [0, 1, 2, 3, 4, 5].map((n) => reconnectDelay(n, 0, high));
    const mids = [0, 1, 2, 3, 4, 5].map((n) => reconnectDelay(n, 0, mid));
    assert.deepEqual(lows, [100, 100, 200, 400, 800, 1600]);
    assert.deepEqual(highs, [100, 200, 400, 800, 1600, 3200]);
    assert.deepEqual(mids, [100, 150, 300, 600, 1200, 2400]);
    for (let n = 0; n < 40; n++) {
      for (const random of [low, mid, high]) {
        const delay = reconnectDelay(n, 250, random);
        assert.ok(delay >= 250 && delay <= RECONNECT_CAP_MS, `attempt ${n}: ${delay}`);
      }
    }
    assert.equal(reconnectDelay(40, 0, low), RECONNECT_CAP_MS / 2);
    assert.equal(reconnectDelay(1000, 0, high), RECONNECT_CAP_MS);
  });

  it('keeps a random source out of range inside the bounds', () => {
    assert.equal(
      reconnectDelay(2, 100, () => -5),
      200,
    );
    assert.equal(
      reconnectDelay(2, 100, () => 7),
      400,
    );
    assert.equal(
      reconnectDelay(2, 100, () => Number.NaN),
      200,
    );
  });
});

describe('Reconnect', () => {
  it('spends its budget on reconnects without progress, then refuses', () => {
    const r = new Reconnect({ budget: 3, random: low });
    r.ended(false);
    assert.equal(r.next(0), 100);
    r.ended(false);
    assert.equal(r.next(0), 100);
    r.ended(false);
    assert.equal(r.next(0), 200);
    assert.equal(r.attempts, 3);
    r.ended(false);
    assert.equal(r.next(0), undefined);
    assert.equal(r.next(0), undefined, 'stays spent');
  });

  it('resets the delay and the budget only after progress', () => {
    const r = new Reconnect({ budget: 3, random: high });
    assert.equal(r.next(0), 100);
    r.ended(false);
    assert.equal(r.next(0), 200);
    r.ended(true);
    assert.equal(r.attempts, 0);
    assert.equal(r.next(0), 100, 'back to the first wait');
    r.ended(false);
    assert.equal(r.next(0), 200);
    r.ended(false);
    assert.equal(r.next(0), 400);
    r.ended(false);
    assert.equal(r.next(0), undefined);
  });

  it('counts a delivered message or a long-lived stream as progress, nothing else', () => {
    assert.equal(madeProgress(true, 0), true);
    assert.equal(madeProgress(false, STABLE_STREAM_MS), true);
    assert.equal(madeProgress(false, STABLE_STREAM_MS - 1), false);
  });
});
