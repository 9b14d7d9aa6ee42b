import type { Factory } from './factory.js';
import type { IO } from './io.js';
import { telemetryEnabled, telemetryEvent, updateCheckEnabled } from './telemetry.js';

/** Work after a command: queue its telemetry event and look at the update cache. Never throws. */
export async function afterCommand(io: IO, version: string, group: string, success: boolean, factory?: Factory): Promise<void> {
  if (telemetryEnabled(io.env) && factory) {
    const target = await factory.target().catch(() => undefined);
    if (target) {
      io.background({ kind: 'telemetry', url: `${target.url}/api/v1/telemetry`, event: await telemetryEvent(io, group, success, version) });
    }
  }
  if (updateCheckEnabled(io.env) && group !== 'update') {
    const { updateNotice } = await import('./update-check.js');
    await updateNotice(io, version);
  }
}
