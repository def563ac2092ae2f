import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { DomainError } from '../../platform/errors.js';

/**
 * The one rule for where webhooks may go (endpoints and a checkout's `metadata.webhook_url`).
 *
 * Test mode: any https URL, or plain http to a local receiver (127.0.0.1, localhost, [::1]).
 * Live mode: https to a public unicast address only, judged on the addresses a name RESOLVES to,
 * at registration and again at delivery, where the connection is pinned to the vetted address
 * (`pinnedLookup`), so a name cannot rebind to a private address between check and connect.
 */

/** Resolves a host name to its addresses (injectable so tests can stub DNS). */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);
let resolver: Resolver = systemResolver;

/** Replaces the resolver used in live mode (tests); without an argument, restores the system one. */
export function setWebhookResolver(next?: Resolver): void {
  resolver = next ?? systemResolver;
}

/** Names that never denote a public host (RFC 6761/6762, RFC 8375, ICANN `.internal`, cluster DNS). */
const SPECIAL_USE_SUFFIXES =
  /(^|\.)(localhost|localdomain|local|internal|intranet|lan|home\.arpa|corp|private|svc|cluster\.local|test|invalid|onion|arpa)$/;

const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/** The host of a URL, lower-case, without brackets or trailing dots (`localhost.` is `localhost`). */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
}

/**
 * Why `ip` is not a public unicast address (the ipaddr.js range name), or null when it is. An
 * IPv4 address embedded in IPv6 (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64
 * `64:ff9b::/96`) is judged as that IPv4 address.
 */
export function addressProblem(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return 'not an IP address';
  const addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    const range = v6.range();
    const compatible = range === 'unicast' && v6.parts.slice(0, 6).every((p) => p === 0); // deprecated ::a.b.c.d
    if (range === 'ipv4Mapped' || compatible || v6.match(NAT64)) {
      const [a, b] = v6.parts.slice(6);
      return addressProblem(`${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`);
    }
    return range === 'unicast' ? null : range;
  }
  const range = (addr as ipaddr.IPv4).range();
  return range === 'unicast' ? null : range;
}

function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return ipaddr.isValid(host) && addressProblem(host) === 'loopback';
}

const NOT_PUBLIC = 'must be a public address in live mode (private, loopback, reserved and internal hosts are refused)';

/**
 * Why `raw` cannot receive webhooks in this mode, judged on the URL alone (scheme, credentials,
 * IP literals in any encoding the URL parser accepts, special-use and single-label names), or
 * null. Live mode also needs `webhookUrlProblemResolved` (what the name resolves to).
 */
export function webhookUrlProblem(raw: string, livemode: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  const host = hostOf(url);
  if (url.protocol === 'http:') {
    if (livemode) return 'must use https in live mode';
    return isLoopbackHost(host)
      ? null
      : 'must use https (plain http is accepted only for 127.0.0.1 or localhost in test mode)';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (!livemode) return null;
  if (ipaddr.isValid(host)) return addressProblem(host) ? NOT_PUBLIC : null;
  if (!host.includes('.') || SPECIAL_USE_SUFFIXES.test(host)) return NOT_PUBLIC;
  return null;
}

/** Resolves `host` and returns its addresses if every one is public, else a problem (never an address). */
async function vetHost(host: string): Promise<{ addresses: string[] } | { problem: string }> {
  if (ipaddr.isValid(host)) return addressProblem(host) ? { problem: NOT_PUBLIC } : { addresses: [host] };
  let addresses: string[];
  try {
    addresses = await resolver(host);
  } catch {
    return { problem: 'must be a host name that resolves' };
  }
  if (addresses.length === 0) return { problem: 'must be a host name that resolves' };
  // Every address must be public: a name with one private address among public ones is refused.
  if (addresses.some((a) => addressProblem(a) !== null)) return { problem: NOT_PUBLIC };
  return { addresses };
}

/** `webhookUrlProblem`, plus in live mode: the host must resolve, and only to public addresses. */
export async function webhookUrlProblemResolved(raw: string, livemode: boolean): Promise<string | null> {
  const problem = webhookUrlProblem(raw, livemode);
  if (problem || !livemode) return problem;
  const vetted = await vetHost(hostOf(new URL(raw)));
  return 'problem' in vetted ? vetted.problem : null;
}

/** Refuses (422 `validation_error` on `param`) a webhook URL this mode may not deliver to; every registration path calls this. */
export async function assertWebhookUrl(livemode: boolean, url: unknown, param: string): Promise<void> {
  const problem = typeof url === 'string' ? await webhookUrlProblemResolved(url, livemode) : 'must be a string';
  if (problem) throw DomainError.field(param, problem);
}

/** The error a refused connection fails with (its message names no address). */
export class AddressNotAllowedError extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor() {
    super('the host resolves to an address webhooks may not reach');
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net`/`tls` connections (an HTTP agent's option) that resolves with the webhook
 * resolver, refuses unless every address is public, and hands the socket exactly the addresses
 * it vetted: the connection goes where the check looked, whatever DNS answers a moment later.
 */
export function pinnedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  vetHost(
    hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.+$/, '')
      .toLowerCase(),
  ).then(
    (vetted) => {
      if ('problem' in vetted) return callback(new AddressNotAllowedError(), '');
      const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
      const all = vetted.addresses
        .map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
        .filter((a) => wanted === 0 || a.family === wanted);
      if (all.length === 0)
        return callback(Object.assign(new Error('no address of the requested family'), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, all);
      callback(null, all[0].address, all[0].family);
    },
    (err: unknown) => callback(err as NodeJS.ErrnoException, ''),
  );
}
