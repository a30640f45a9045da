/**
 * The browser login's loopback callback server, over real HTTP: only a callback carrying this login's
 * `state` ends the wait. A callback with another state, or none (a tab left from an earlier login on a
 * port a stored registration brought back, a page, a local process), is answered 400 and dropped
 * (RFC 6749 §10.12, RFC 9700 §4.7); the deadline error says how many were dropped.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startLoopback } from '../../src/oauth/login/loopback.js';

const STATE = 'this-login-state-0123456789abcdefghijklmnopq';

/** The callbacks that are not this login's: each must be answered 400 and leave the wait running. */
const STRAYS = [
  ['an earlier login', '?code=earlier-code&state=earlier-login-state&iss=https%3A%2F%2Fas.example'],
  ['no state', '?code=some-code'],
  ['an error with another state', '?error=access_denied&state=forged'],
  ['an empty state', '?code=some-code&state='],
  ['a prefix of the state', `?code=some-code&state=${STATE.slice(0, -1)}`],
  ['the state and one more character', `?code=some-code&state=${STATE}x`],
] as const;

test('a callback with another state, or none, is answered 400 and the login waits on for its own', async () => {
  const loopback = await startLoopback({ host: '127.0.0.1', port: 0, state: STATE, timeoutMs: 60_000 });
  try {
    for (const [what, query] of STRAYS) {
      const answer = fetch(`${loopback.redirectUri}${query}`);
      const first = await Promise.race([
        answer,
        loopback.callback.then(
          () => 'ended',
          () => 'ended',
        ),
      ]);
      assert.notEqual(first, 'ended', `${what}: the callback ended this login's wait`);
      const response = await answer;
      assert.equal(response.status, 400, what);
      assert.match(await response.text(), /not for the login in progress/, what);
    }
    const answer = fetch(`${loopback.redirectUri}?code=the-code&state=${STATE}`);
    const params = await loopback.callback;
    assert.equal(params.get('code'), 'the-code');
    loopback.finish(true);
    const response = await answer;
    assert.equal(response.status, 200);
    assert.match(await response.text(), /Login finished/);
  } finally {
    await loopback.close();
  }
});

test('the deadline error counts the callbacks dropped for another state', async () => {
  const loopback = await startLoopback({ host: '127.0.0.1', port: 0, state: STATE, timeoutMs: 300 });
  try {
    for (const query of ['?code=a&state=one', '?code=b&state=two'])
      assert.equal((await fetch(`${loopback.redirectUri}${query}`)).status, 400);
    await assert.rejects(loopback.callback, (error: Error & { kind?: string }) => {
      assert.equal(error.kind, 'timeout');
      assert.match(
        error.message,
        /^no login callback came within \d+ s \(2 callbacks with another state dropped\)$/,
      );
      return true;
    });
  } finally {
    await loopback.close();
  }
});
