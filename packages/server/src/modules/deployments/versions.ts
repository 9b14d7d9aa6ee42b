import type { Config } from '../../config.js';
import { badRequest } from '../../http/errors.js';
import type { VersionRun } from './version-history.js';

/** What a deployment stores about its engine version: nulls follow the default channel's head. */
export interface StoredRelease {
  release_channel: string | null;
  release_channel_version: string | null;
}

export type Releases = Pick<Config, 'releaseChannels' | 'imageRepo'>;

export interface EngineVersion {
  version: string;
  channel: string;
  latest: boolean;
  current: boolean;
  passAs: string;
}

const VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The channel new deployments follow: `release` when the server offers it, else the first one configured. */
export function defaultChannel(releases: Releases): string {
  return 'release' in releases.releaseChannels ? 'release' : Object.keys(releases.releaseChannels)[0]!;
}

export const imageOf = (releases: Releases, version: string) => `${releases.imageRepo}:v${version}`;

/**
 * The channel and version in effect. A stored channel the server no longer offers falls back to
 * the default channel; a stored version stays, since the deployment keeps running it.
 */
export function inEffect(releases: Releases, stored: StoredRelease): { channel: string; version: string; image: string } {
  const channel =
    stored.release_channel && stored.release_channel in releases.releaseChannels ? stored.release_channel : defaultChannel(releases);
  const version = stored.release_channel_version ?? releases.releaseChannels[channel]![0]!;
  return { channel, version, image: imageOf(releases, version) };
}

/**
 * Section 9 rule 3: each channel's versions, its head marked LATEST, then the older versions the
 * account has run (`ran`, newest first) that no channel offers any more; the one in effect CURRENT.
 */
export function versionList(releases: Releases, stored: StoredRelease, ran: readonly VersionRun[] = []): EngineVersion[] {
  const effect = inEffect(releases, stored);
  const offered = Object.entries(releases.releaseChannels).flatMap(([channel, versions]) =>
    versions.map((version, index) => ({
      version,
      channel,
      latest: index === 0,
      current: channel === effect.channel && version === effect.version,
      passAs: imageOf(releases, version),
    })),
  );
  const listed = new Set(offered.map((v) => v.version));
  const older = ran
    .filter((run) => !listed.has(run.version))
    .map((run) => {
      const current = run.version === effect.version;
      return {
        version: run.version,
        channel: current ? effect.channel : run.channel,
        latest: false,
        current,
        passAs: imageOf(releases, run.version),
      };
    });
  const all = [...offered, ...older];
  // A version the server no longer offers stays listed while the deployment runs it, recorded or not.
  if (all.some((v) => v.current)) return all;
  return [...all, { version: effect.version, channel: effect.channel, latest: false, current: true, passAs: effect.image }];
}

/** Section 9 rule 4: `<version>`, `v<version>` or `<image_repo>:v<version>`, and nothing else. */
export function parseVersion(releases: Releases, given: string): string {
  const prefix = `${releases.imageRepo}:v`;
  const bare = given.startsWith(prefix) ? given.slice(prefix.length) : given.startsWith('v') ? given.slice(1) : given;
  if (!VERSION.test(bare)) {
    throw badRequest(
      `releaseChannelVersion "${given}" is not a version: give <version>, v<version> or ${releases.imageRepo}:v<version>, e.g. v1.2.0`,
    );
  }
  return bare;
}

/**
 * The release a change asks for. `releaseChannel` alone moves to that channel's head; a version must
 * be on the list of the channel in effect after the change, or one the account has run (`ran`):
 * rule 4 refuses only a version that is not on the `versions` list.
 */
export function resolveRelease(
  releases: Releases,
  stored: StoredRelease,
  change: { releaseChannel?: string | undefined; releaseChannelVersion?: string | undefined },
  ran: readonly VersionRun[] = [],
): StoredRelease {
  const channels = Object.keys(releases.releaseChannels);
  if (change.releaseChannel !== undefined && !channels.includes(change.releaseChannel)) {
    throw badRequest(`releaseChannel "${change.releaseChannel}" is not a channel of this server; channels: ${channels.join(', ')}`);
  }
  const channel = change.releaseChannel ?? inEffect(releases, stored).channel;
  const offered = releases.releaseChannels[channel]!;
  if (change.releaseChannelVersion === undefined) {
    if (change.releaseChannel === undefined)
      return { release_channel: stored.release_channel, release_channel_version: stored.release_channel_version };
    return { release_channel: channel, release_channel_version: offered[0]! };
  }
  const version = parseVersion(releases, change.releaseChannelVersion);
  if (!offered.includes(version) && !ran.some((run) => run.version === version)) {
    throw badRequest(`Version ${version} is not offered on channel ${channel}; offered: ${offered.join(', ')}`);
  }
  return { release_channel: channel, release_channel_version: version };
}
