import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** Ranges no tenant-chosen address may reach, each with the words a refusal uses for it. */
const RANGES: Array<[cidr: string, kind: string]> = [
  ['0.0.0.0/8', 'an unspecified'],
  ['10.0.0.0/8', 'a private'],
  ['100.64.0.0/10', 'a shared (carrier-grade NAT)'],
  ['127.0.0.0/8', 'a loopback'],
  ['169.254.0.0/16', 'a link-local'],
  ['172.16.0.0/12', 'a private'],
  ['192.0.0.0/24', 'a reserved'],
  ['192.168.0.0/16', 'a private'],
  ['198.18.0.0/15', 'a reserved'],
  ['224.0.0.0/4', 'a multicast'],
  ['240.0.0.0/4', 'a reserved'],
  ['::/128', 'an unspecified'],
  ['::1/128', 'a loopback'],
  ['fc00::/7', 'a unique-local'],
  ['fe80::/10', 'a link-local'],
  ['ff00::/8', 'a multicast'],
];

const lists = RANGES.map(([cidr, kind]) => {
  const list = new BlockList();
  const [network, prefix] = cidr.split('/');
  list.addSubnet(network!, Number(prefix), isIP(network!) === 6 ? 'ipv6' : 'ipv4');
  return { list, kind };
});

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is the IPv4 address for every check. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address.replace(/^\[|\]$/g, '').toLowerCase();
}

export function family(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/**
 * Why `address` is internal ("a loopback address", "one of this server's own addresses"), or null
 * for an address on the public internet.
 */
export function internalKind(raw: string): string | null {
  const address = plainAddress(raw);
  const type = family(address);
  for (const { list, kind } of lists) if (list.check(address, type)) return `${kind} address`;
  if (ownAddresses().has(address)) return "one of this server's own addresses";
  return null;
}

/** Read at each check: interfaces come and go while the server runs. */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) for (const entry of entries ?? []) own.add(plainAddress(entry.address));
  return own;
}
