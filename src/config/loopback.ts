import { BlockList, isIP } from 'node:net';

/** 127.0.0.0/8 and ::1; IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is matched by BlockList itself. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether a host (an address or a name, IPv6 with or without brackets) is this machine's loopback:
 * 127.0.0.0/8, ::1 or `localhost`. The address is parsed, never matched by prefix: `127.evil.example`
 * is a name anyone can point anywhere.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  const family = isIP(bare);
  if (family === 4) return LOOPBACK.check(bare, 'ipv4');
  if (family === 6) return LOOPBACK.check(bare, 'ipv6');
  return false;
}
