/**
 * The address rule of server-named OAuth URLs, as a table: every literal form a URL or a resolver can
 * hand over (IPv4, IPv6, IPv4 inside IPv6, the odd IPv4 spellings WHATWG URL parsing normalizes) and the
 * kind it is on; then which kinds a server-named URL may reach from which kind of MCP server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressKind, mayReach, type NetworkKind } from '../../src/protocol/address-policy.js';

/** [address as a resolver or URL.hostname gives it, kind]. */
const TABLE: ReadonlyArray<readonly [string, NetworkKind | undefined]> = [
  ['93.184.215.14', 'public'],
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['192.168.1.1', 'private'],
  ['192.169.0.1', 'public'],
  ['169.254.169.254', 'link-local'],
  ['169.254.0.1', 'link-local'],
  ['100.64.0.1', 'shared'],
  ['100.127.255.255', 'shared'],
  ['100.128.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.1', 'reserved'],
  ['239.255.255.250', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['240.0.0.1', 'reserved'],
  // IPv6
  ['::', 'unspecified'],
  ['[::]', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fd00::1', 'private'],
  ['fc00::1', 'private'],
  ['[fd12:3456:789a::1]', 'private'],
  ['fec0::1', 'private'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['[febf::1]', 'link-local'],
  ['ff02::1', 'reserved'],
  ['2606:4700:4700::1111', 'public'],
  ['2001:db8::1', 'public'],
  // IPv4 inside IPv6: the kind of the IPv4 address
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:a00:1', 'private'],
  ['[::ffff:7f00:1]', 'loopback'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  ['::10.0.0.1', 'private'],
  ['::a00:1', 'private'],
  ['::127.0.0.1', 'loopback'],
  ['::ffff:0:10.0.0.1', 'private'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['64:ff9b::a9fe:a9fe', 'link-local'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b:1::1', 'private'],
  ['2002:a00:1::1', 'private'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:808:808::', 'public'],
  // not addresses: host names (resolved and then checked), and forms a URL never hands over
  ['example.com', undefined],
  ['localhost', undefined],
  ['0x7f.1', undefined],
  ['2130706433', undefined],
  ['127.1', undefined],
  ['1.2.3.4.5', undefined],
  ['256.0.0.1', undefined],
  ['::1::1', undefined],
  ['1:2:3:4:5:6:7:8:9', undefined],
  ['12345::1', undefined],
  ['::ffff:1.2.3', undefined],
];

describe('the address rule', () => {
  test('every literal form is read to its network kind', () => {
    const wrong = TABLE.filter(([text, want]) => addressKind(text) !== want).map(
      ([text, want]) => `${text}: want ${want}, got ${addressKind(text)}`,
    );
    assert.deepEqual(wrong, []);
  });

  test('the odd IPv4 spellings reach the rule as the address they mean (WHATWG URL parsing)', () => {
    const odd: ReadonlyArray<readonly [string, string, NetworkKind]> = [
      ['https://0x7f.1/', '127.0.0.1', 'loopback'],
      ['https://2130706433/', '127.0.0.1', 'loopback'],
      ['https://127.1/', '127.0.0.1', 'loopback'],
      ['https://0177.0.0.1/', '127.0.0.1', 'loopback'],
      ['https://0x0a.0.0.1/', '10.0.0.1', 'private'],
      ['https://167772161/', '10.0.0.1', 'private'],
      ['https://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254', 'link-local'],
      ['https://0/', '0.0.0.0', 'unspecified'],
      ['https://192.168.1.1./', '192.168.1.1', 'private'],
      ['https://[::ffff:10.0.0.1]/', '[::ffff:a00:1]', 'private'],
      ['https://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]', 'loopback'],
      ['https://[0:0:0:0:0:0:0:0]/', '[::]', 'unspecified'],
      ['https://[FD00::1]/', '[fd00::1]', 'private'],
    ];
    for (const [url, hostname, kind] of odd) {
      const parsed = new URL(url).hostname;
      assert.equal(parsed, hostname, url);
      assert.equal(addressKind(parsed), kind, url);
    }
  });

  test('public always; another kind only from an MCP server on that kind; unspecified and reserved never', () => {
    const kinds: NetworkKind[] = [
      'public',
      'loopback',
      'private',
      'link-local',
      'shared',
      'unspecified',
      'reserved',
    ];
    const none: ReadonlySet<NetworkKind> = new Set(['public']);
    for (const kind of kinds)
      assert.equal(mayReach(kind, none), kind === 'public', `${kind} from a public server`);
    for (const home of kinds)
      for (const kind of kinds)
        assert.equal(
          mayReach(kind, new Set([home])),
          kind === 'public' || (kind === home && kind !== 'unspecified' && kind !== 'reserved'),
          `${kind} from a ${home} server`,
        );
    assert.equal(mayReach('private', new Set(['loopback'])), false, 'a loopback server may not reach 10.x');
    assert.equal(mayReach('loopback', new Set(['private'])), false, 'a 10.x server may not reach loopback');
  });
});
