/**
 * Which kind of network an IP address is on, and whether a URL a server named may reach it: the rule that
 * keeps OAuth fetches out of the user's private networks (docs/oauth.md, "Private networks"). A server-named
 * URL may reach the public internet, or the kind of network the MCP server itself is on; never an
 * unspecified or multicast/reserved address. Pure: address text in, kind out; DNS is the caller's.
 */

/**
 * - `loopback`: 127.0.0.0/8, ::1.
 * - `private`: 10/8, 172.16/12, 192.168/16 (RFC 1918), fc00::/7 (ULA), fec0::/10 (old site-local),
 *   64:ff9b:1::/48 (local-use NAT64).
 * - `link-local`: 169.254/16 (cloud metadata services live there), fe80::/10.
 * - `shared`: 100.64/10 (RFC 6598, carrier-grade NAT; also tailnets).
 * - `unspecified`: 0.0.0.0/8, :: (connecting to 0.0.0.0 reaches this host).
 * - `reserved`: multicast 224/4, ff00::/8, and 240/4 with the broadcast address.
 * IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, translated
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are the kind of that IPv4 address.
 */
export type NetworkKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unspecified'
  | 'reserved';

/** Kinds that no server-named URL may reach, whatever network the MCP server is on. */
const NEVER: ReadonlySet<NetworkKind> = new Set(['unspecified', 'reserved']);

/**
 * True when a URL a server named may connect to an address of `kind`, for an MCP server whose own
 * addresses are of the kinds in `home`: public always; otherwise only a kind the server is on itself
 * (a company server on 10.x may name a 192.168.x authorization server; a loopback server, loopback).
 */
export function mayReach(kind: NetworkKind, home: ReadonlySet<NetworkKind>): boolean {
  return kind === 'public' || (!NEVER.has(kind) && home.has(kind));
}

/** Words for a kind, for error messages ("10.0.0.1 is a private address"). */
export function kindWords(kind: NetworkKind): string {
  switch (kind) {
    case 'public':
      return 'a public address';
    case 'loopback':
      return 'a loopback address';
    case 'private':
      return 'a private address (RFC 1918 or IPv6 unique local)';
    case 'link-local':
      return 'a link-local address';
    case 'shared':
      return 'a carrier-grade NAT address (100.64.0.0/10)';
    case 'unspecified':
      return 'an unspecified address';
    case 'reserved':
      return 'a multicast or reserved address';
  }
}

/**
 * The kind of an IP address as text: dotted-quad IPv4, or IPv6 with or without brackets and zone
 * (`[fe80::1%eth0]`). `undefined` when the text is not an IP address (a host name). Only the strict
 * dotted-quad IPv4 form is read: WHATWG URL parsing turns `0x7f.1`, `2130706433` and `127.1` into
 * `127.0.0.1` before a host name gets here, and resolvers answer in dotted quads.
 */
export function addressKind(text: string): NetworkKind | undefined {
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return ipv4Kind(v4);
  const v6 = parseIpv6(text);
  return v6 === undefined ? undefined : ipv6Kind(v6);
}

/** An IPv4 address as a 32-bit unsigned number, from the strict dotted-quad form only. */
function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

function inV4(address: number, base: string, bits: number): boolean {
  const start = parseIpv4(base) ?? 0;
  const size = 2 ** (32 - bits);
  return address >= start && address < start + size;
}

function ipv4Kind(a: number): NetworkKind {
  if (inV4(a, '0.0.0.0', 8)) return 'unspecified';
  if (inV4(a, '127.0.0.0', 8)) return 'loopback';
  if (inV4(a, '10.0.0.0', 8) || inV4(a, '172.16.0.0', 12) || inV4(a, '192.168.0.0', 16)) return 'private';
  if (inV4(a, '169.254.0.0', 16)) return 'link-local';
  if (inV4(a, '100.64.0.0', 10)) return 'shared';
  if (inV4(a, '224.0.0.0', 4) || inV4(a, '240.0.0.0', 4)) return 'reserved';
  return 'public';
}

/** Eight 16-bit groups, or `undefined`. Takes `[…]`, a `%zone`, `::` and a trailing dotted quad. */
function parseIpv6(raw: string): number[] | undefined {
  let text = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (text.length > 45 || !text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined): number[] | undefined => {
    if (half === undefined || half === '') return [];
    const out: number[] = [];
    const pieces = half.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] ?? '';
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(Number.parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  if (head === undefined || tail === undefined) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  if (head.length + tail.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

function ipv6Kind(g: number[]): NetworkKind {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = ipv4Kind(g6 * 65536 + g7);
  const zeroTo = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && g7 === 1) return 'loopback';
  if (zeroTo(5) && g5 === 0xffff) return embedded; // ::ffff:a.b.c.d, mapped
  if (zeroTo(6)) return embedded; // ::a.b.c.d, compatible (deprecated)
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return embedded; // ::ffff:0:a.b.c.d, translated
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded; // NAT64
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private'; // local-use NAT64 (RFC 8215)
  if (g0 === 0x2002) return ipv4Kind(g1 * 65536 + g2); // 6to4
  if ((g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfec0) return 'private';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xff00) === 0xff00) return 'reserved';
  return 'public';
}
