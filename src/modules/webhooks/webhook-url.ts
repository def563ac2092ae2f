import { BlockList, isIP } from 'node:net';

/** Addresses a live-mode webhook may not target: loopback, private, link-local, CGNAT, multicast, reserved. */
const privateRanges = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3]] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96]] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv6');
}

const LOOPBACK_NAMES = /^(localhost|.+\.localhost)$/i;
const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa)$/i;

function isLoopback(host: string): boolean {
  if (LOOPBACK_NAMES.test(host)) return true;
  const family = isIP(host);
  if (family === 4) return host.startsWith('127.');
  return family === 6 && host === '::1';
}

function isPrivate(host: string): boolean {
  if (INTERNAL_NAMES.test(host) || !host.includes('.') && isIP(host) === 0) return true;
  const family = isIP(host);
  if (family === 0) return false;
  return privateRanges.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why `raw` cannot receive webhooks in this mode, or null when it can. Live mode: https only, to
 * a public host (no private, loopback or internal addresses written in the URL). Test mode:
 * any https URL, or plain http to a local receiver (127.0.0.1, localhost, [::1]).
 */
export function webhookUrlProblem(raw: string, livemode: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (url.protocol === 'http:') {
    if (livemode) return 'must use https in live mode';
    return isLoopback(host) ? null : 'must use https (plain http is accepted only for 127.0.0.1 or localhost in test mode)';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (livemode && (isLoopback(host) || isPrivate(host))) return 'must be a public address in live mode (private, loopback and internal hosts are refused)';
  return null;
}
