import { BlockList, isIP } from 'node:net';
import { family, plainAddress } from './addresses.js';

/** What the operator lets tenants reach beyond the public internet. */
export interface EgressSettings {
  /** PLINTH_EGRESS_ALLOW: host names (`git.internal`, `*.corp.example`) and addresses or CIDR ranges. */
  allow: string[];
  /** PLINTH_ALLOW_LOCAL_REPOSITORIES=1: repositories may be paths on the server's disk (or file:// URLs). */
  allowLocalRepositories: boolean;
}

export const NO_EGRESS_EXCEPTIONS: EgressSettings = { allow: [], allowLocalRepositories: false };

const HOST = /^(\*\.)?[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/i;

/** Why an entry of PLINTH_EGRESS_ALLOW is not a host, address or CIDR range, or null. */
export function allowEntryProblem(entry: string): string | null {
  const [network, prefix, extra] = entry.split('/');
  if (extra !== undefined) return `"${entry}" is not a host, an address or a CIDR range`;
  if (prefix !== undefined) {
    const version = isIP(network!);
    const max = version === 6 ? 128 : 32;
    if (version === 0 || !/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return `"${entry}" is not a CIDR range`;
    return null;
  }
  return isIP(entry) !== 0 || HOST.test(entry) ? null : `"${entry}" is not a host, an address or a CIDR range`;
}

/** The operator's exceptions, matched against a host name and each address it resolves to. */
export class AllowList {
  private readonly addresses = new BlockList();
  private readonly hosts = new Set<string>();
  private readonly suffixes: string[] = [];

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [network, prefix] = entry.split('/');
      if (prefix !== undefined) this.addresses.addSubnet(network!, Number(prefix), family(network!));
      else if (isIP(entry) !== 0) this.addresses.addAddress(plainAddress(entry), family(plainAddress(entry)));
      else if (entry.startsWith('*.')) this.suffixes.push(entry.slice(1).toLowerCase());
      else this.hosts.add(entry.toLowerCase());
    }
  }

  allowsHost(host: string): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.hosts.has(name) || this.suffixes.some((suffix) => name.endsWith(suffix));
  }

  allowsAddress(address: string): boolean {
    const plain = plainAddress(address);
    return this.addresses.check(plain, family(plain));
  }
}
