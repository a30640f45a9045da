/**
 * The address rule applied to the OAuth module's connections (protocol/address-policy.ts has the rule):
 * a URL a server named is resolved here, every address checked, and the connection handed exactly the
 * addresses that were checked, through the `lookup` of the connector, so no second DNS answer (a rebinding)
 * can slip in between the check and the connect. Literal hosts are checked before any request.
 */

import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { addressKind, kindWords, mayReach, type NetworkKind } from '../protocol/address-policy.js';
import { isLoopbackHost } from '../protocol/url-policy.js';

/** Resolves a host name to its addresses (default: the system resolver, as connections use it). */
export type Resolve = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Why a host was refused: the address and its kind (never a secret: hosts and addresses only). */
export class AddressRefused extends Error {
  readonly address: string;
  readonly kind: NetworkKind;

  constructor(host: string, address: string, kind: NetworkKind, server: string) {
    const literal = host === address || host === `[${address}]`;
    const via = literal ? host : `${host} resolves to ${address}, which`;
    super(`${via} is ${kindWords(kind)}, and the MCP server ${server} is not on that kind of network`);
    this.address = address;
    this.kind = kind;
  }
}

export class AddressGuard {
  readonly #server: URL;
  readonly #resolve: Resolve;
  #home: Promise<ReadonlySet<NetworkKind>> | undefined;

  /** `server` is the MCP server's own URL: the network kinds it is on are the ones its URLs may reach. */
  constructor(server: URL, resolve: Resolve = systemResolve) {
    this.#server = server;
    this.#resolve = resolve;
  }

  /** Resolves `hostname` and checks every address; resolves with them all, or throws `AddressRefused`. */
  async addresses(hostname: string): Promise<readonly LookupAddress[]> {
    const literal = addressKind(hostname) === undefined ? undefined : hostname.replace(/^\[(.*)\]$/, '$1');
    const addresses =
      literal === undefined
        ? await this.#resolve(hostname)
        : [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
    await this.#check(hostname, addresses);
    return addresses;
  }

  /** The `lookup` of `net.connect`, both forms (`all: true`, used with happy eyeballs, and single). */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.addresses(hostname).then(
      (all) => {
        const family = Number(options.family) || 0;
        const wanted = family === 0 ? all : all.filter((a) => a.family === family);
        if (options.all === true) return callback(null, [...wanted]);
        const first = wanted[0];
        if (first === undefined)
          return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, ''),
    );
  };

  /** Refuses when any address may not be reached: a name with one private answer among public ones is refused. */
  async #check(host: string, addresses: readonly LookupAddress[]): Promise<void> {
    for (const { address } of addresses) {
      const kind = addressKind(address) ?? 'reserved';
      if (kind === 'public') continue;
      if (!mayReach(kind, await this.#homeKinds()))
        throw new AddressRefused(host, address, kind, this.#server.host);
    }
  }

  /**
   * The kinds of network the MCP server is on: its literal address, loopback for `localhost` names, else
   * what its name resolves to (asked only once a server names a non-public address; a failure is retried).
   */
  #homeKinds(): Promise<ReadonlySet<NetworkKind>> {
    if (this.#home !== undefined) return this.#home;
    const host = this.#server.hostname;
    const literal = addressKind(host);
    const home: Promise<ReadonlySet<NetworkKind>> =
      literal !== undefined
        ? Promise.resolve(new Set([literal]))
        : isLoopbackHost(host)
          ? Promise.resolve(new Set<NetworkKind>(['loopback']))
          : this.#resolve(host).then(
              (all) => new Set(all.map((a) => addressKind(a.address) ?? 'reserved')),
              () => {
                this.#home = undefined;
                return new Set<NetworkKind>();
              },
            );
    this.#home = home;
    return home;
  }
}
