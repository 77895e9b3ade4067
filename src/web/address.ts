import { isIP } from 'node:net';

/**
 * Addresses web_fetch does not reach unless a rule names the host explicitly: this machine, the
 * local network and the cloud's metadata service (server-side request forgery). Judged on the
 * address a name resolves to, so `localtest.me` or a DNS record pointing at 10.0.0.1 is caught too.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'cloud metadata' | 'unspecified' | 'multicast' | 'reserved';

/** Names that mean the metadata service whatever they resolve to. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'metadata.azure.internal', 'instance-data', 'instance-data.ec2.internal']);

export function isMetadataName(host: string): boolean {
  return METADATA_NAMES.has(host.toLowerCase().replace(/\.$/, ''));
}

function v4Octets(address: string): number[] | undefined {
  const parts = address.split('.').map(Number);
  return parts.length === 4 && parts.every((n) => Number.isInteger(n) && n >= 0 && n <= 255) ? parts : undefined;
}

function classifyV4(address: string): AddressClass {
  const o = v4Octets(address);
  if (!o) return 'reserved';
  const [a, b, c] = o as [number, number, number, number];
  if (address === '169.254.169.254' || address === '100.100.100.200') return 'cloud metadata';
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT
  if (a === 169 && b === 254) return 'link-local';
  if (a === 192 && b === 0 && c === 0) return 'reserved';
  if (a === 198 && (b === 18 || b === 19)) return 'reserved';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  return 'public';
}

/** The 8 groups of an IPv6 address as numbers, `::` expanded and a dotted IPv4 tail converted. */
function v6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const o = v4Octets(dotted[1]!);
    if (!o) return undefined;
    text = `${text.slice(0, dotted.index)}${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function classifyV6(address: string): AddressClass {
  const g = v6Groups(address);
  if (!g) return 'reserved';
  const v4Tail = `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  const zeroHead = g.slice(0, 5).every((n) => n === 0);
  if (zeroHead && g[5] === 0xffff) return classifyV4(v4Tail); // ::ffff:a.b.c.d, IPv4-mapped
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((n) => n === 0)) return classifyV4(v4Tail); // NAT64
  if (g.every((n) => n === 0)) return 'unspecified';
  if (g.slice(0, 7).every((n) => n === 0) && g[7] === 1) return 'loopback';
  if (zeroHead && g[5] === 0) return classifyV4(v4Tail); // ::a.b.c.d, IPv4-compatible (deprecated)
  if (g[0] === 0xfd00 && g[1] === 0x0ec2) return 'cloud metadata'; // AWS fd00:ec2::254
  if ((g[0]! & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast';
  return 'public';
}

/** What kind of address this is; anything that is not an IP address is 'reserved'. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) return classifyV4(bare);
  if (family === 6) return classifyV6(bare);
  return 'reserved';
}
