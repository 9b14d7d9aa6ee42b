import { defineVerb } from '../../core/define.js';
import { CliError } from '../../core/errors.js';
import { compareVersions, fetchBytes, fetchIndex, NO_RELEASE_SOURCE, releaseSource, tarballUrl } from '../../core/releases.js';
import { installRelease, installRootOf } from './install.js';

export const verb = defineVerb({
  name: 'update',
  summary: 'Install the latest release of plinth; --check only reports',
  description:
    'Releases come from PLINTH_RELEASE_URL (a release index, index.json, or the directory holding it, over http(s):// or file://),\n' +
    'else from where install.sh installed this plinth. With neither, nothing is checked and nothing is fetched.',
  options: [{ flags: '--check', description: 'Only report whether a newer release exists' }],
  async run(f, _args, opts) {
    const source = await releaseSource(f.io.env);
    if (!source) {
      if (!opts.check)
        throw new CliError(
          'No release location is configured',
          'Set PLINTH_RELEASE_URL to your release location (a release index or the directory holding index.json).',
        );
      if (f.output.json) return f.output.data(JSON.stringify({ current: f.version, updateCheck: 'off' }));
      return f.output.data(NO_RELEASE_SOURCE);
    }
    let index;
    try {
      index = await fetchIndex(source);
    } catch (error) {
      throw new CliError(
        `Cannot read the release index at ${source}: ${(error as Error).message}`,
        'Set PLINTH_RELEASE_URL to your release location.',
      );
    }
    const current = f.version;
    const newer = compareVersions(index.latest, current) > 0;
    if (opts.check || !newer) {
      if (f.output.json) return f.output.data(JSON.stringify({ current, latest: index.latest, updateAvailable: newer }));
      return f.output.data(newer ? `A new release is available: ${current} → ${index.latest}` : `plinth ${current} is up to date`);
    }
    const root = installRootOf(f.io.env);
    const url = tarballUrl(source, index, index.latest);
    if (!root) {
      throw new CliError(
        'This plinth was not installed by install.sh, so it cannot replace itself',
        `Install the release with: npm install -g ${url}`,
      );
    }
    f.output.status(`Downloading plinth ${index.latest}…`);
    const link = await installRelease(root, index.latest, await fetchBytes(url, 120_000), index.releases[index.latest]?.sha256);
    f.output.data(`Updated plinth ${current} → ${index.latest} (${link})`);
  },
});
