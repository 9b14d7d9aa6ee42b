import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';

describe('the settings of deployments in full (PLINTH_RELEASE_CHANNELS, PLINTH_IMAGE_REPO, PLINTH_REGIONS)', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      releaseChannels: { latest: ['1.3.0', '1.2.0'], release: ['1.2.0'] },
      imageRepo: 'plinth/engine',
      regions: ['local'],
    });
  });

  it('reads each', () => {
    const config = loadConfig({
      PLINTH_RELEASE_CHANNELS: '{"stable": ["2.0.1", "2.0.0-rc.1"]}',
      PLINTH_IMAGE_REPO: 'registry.example.com/analytics/engine',
      PLINTH_REGIONS: 'eu-west-1, us-east-1,eu-west-1',
    });
    expect(config).toMatchObject({
      releaseChannels: { stable: ['2.0.1', '2.0.0-rc.1'] },
      imageRepo: 'registry.example.com/analytics/engine',
      regions: ['eu-west-1', 'us-east-1'],
    });
  });

  it.each([
    ['PLINTH_RELEASE_CHANNELS', 'latest'],
    ['PLINTH_RELEASE_CHANNELS', '[]'],
    ['PLINTH_RELEASE_CHANNELS', '{}'],
    ['PLINTH_RELEASE_CHANNELS', '{"latest": []}'],
    ['PLINTH_RELEASE_CHANNELS', '{"latest": ["v1.2.0"]}'],
    ['PLINTH_RELEASE_CHANNELS', '{"Latest Channel": ["1.2.0"]}'],
    ['PLINTH_IMAGE_REPO', 'Plinth Engine'],
    ['PLINTH_REGIONS', 'eu west'],
    ['PLINTH_REGIONS', 'eu,,us'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(`Invalid setting ${name}`);
  });
});
