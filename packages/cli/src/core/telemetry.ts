import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configDir } from './config.js';
import type { IO } from './io.js';

/** Legacy name of PLINTH_NO_TELEMETRY, still honoured. */
export const LEGACY_NO_TELEMETRY = 'PLINTH_TELEMETRY_DISABLED';

const truthy = (value: string | undefined) => value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';

/** Section 5: off with PLINTH_NO_TELEMETRY (or its legacy alias), and whenever CI is set. */
export function telemetryEnabled(env: IO['env']): boolean {
  return !truthy(env.PLINTH_NO_TELEMETRY) && !truthy(env[LEGACY_NO_TELEMETRY]) && !truthy(env.CI);
}

export function updateCheckEnabled(env: IO['env']): boolean {
  return !truthy(env.PLINTH_NO_UPDATE_CHECK) && !truthy(env.CI);
}

/**
 * The hashed machine id: a random id made once and kept beside the config, sent only as its
 * SHA-256, so it identifies an installation, never a person or a host name.
 */
export async function machineId(io: IO): Promise<string> {
  const file = join(configDir(io), 'machine-id');
  let id: string;
  try {
    id = (await readFile(file, 'utf8')).trim();
  } catch {
    id = randomUUID();
    await mkdir(configDir(io), { recursive: true, mode: 0o700 });
    await writeFile(file, `${id}\n`, { mode: 0o600 });
  }
  return createHash('sha256').update(`plinth:${id}`).digest('hex');
}

export async function telemetryEvent(io: IO, group: string, success: boolean, version: string) {
  return {
    command: group,
    success,
    version,
    platform: `${io.platform}-${process.arch} node-${process.versions.node}`,
    machineId: await machineId(io),
  };
}

/** Sends one event; runs in the background process, and gives up quietly after 3 seconds. */
export async function sendTelemetry(url: string, event: Record<string, unknown>): Promise<void> {
  await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(event),
    signal: AbortSignal.timeout(3000),
  }).catch(() => undefined);
}
