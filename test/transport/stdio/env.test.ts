import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildChildEnv } from '../../../src/transport/stdio/index.js';

describe('buildChildEnv', () => {
  const parent = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    LANG: 'C.UTF-8',
    AWS_SECRET_ACCESS_KEY: 'aws',
    GITHUB_TOKEN: 'gh',
    NODE_OPTIONS: '--require evil.js',
    EMPTY: undefined,
  };

  it('keeps only allow-listed parent variables on POSIX, plus the configured ones', () => {
    assert.deepEqual(buildChildEnv(parent, { SERVER_KEY: 'k' }, 'linux'), {
      PATH: '/usr/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      SERVER_KEY: 'k',
    });
  });

  it('lets configured variables override allow-listed ones', () => {
    assert.equal(buildChildEnv(parent, { PATH: '/opt/bin' }, 'darwin')['PATH'], '/opt/bin');
  });

  it('is case-sensitive on POSIX', () => {
    assert.deepEqual(buildChildEnv({ Path: '/x', path: '/y' }, {}, 'linux'), {});
  });

  it('matches names case-insensitively on Windows, keeping the parent spelling, and adds Windows essentials', () => {
    const env = buildChildEnv(
      {
        Path: 'C:\\bin',
        SystemRoot: 'C:\\Windows',
        ComSpec: 'C:\\Windows\\cmd.exe',
        GITHUB_TOKEN: 'gh',
        appdata: 'A',
      },
      {},
      'win32',
    );
    assert.deepEqual(env, {
      Path: 'C:\\bin',
      SystemRoot: 'C:\\Windows',
      ComSpec: 'C:\\Windows\\cmd.exe',
      appdata: 'A',
    });
  });

  it('on Windows, a configured variable replaces the parent one whatever its case', () => {
    assert.deepEqual(buildChildEnv({ Path: 'C:\\bin' }, { PATH: 'D:\\bin' }, 'win32'), { PATH: 'D:\\bin' });
  });

  it('does not modify its inputs', () => {
    const copy = { ...parent };
    buildChildEnv(parent, { X: '1' }, 'linux');
    assert.deepEqual(parent, copy);
  });
});
