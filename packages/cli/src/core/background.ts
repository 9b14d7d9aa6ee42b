import type { BackgroundJob } from './io.js';

/** Runs one background job; the real client runs this file in a detached child process. */
export async function runBackgroundJob(job: BackgroundJob): Promise<void> {
  if (job.kind === 'telemetry') {
    const { sendTelemetry } = await import('./telemetry.js');
    await sendTelemetry(job.url, job.event);
  } else if (job.kind === 'update-check') {
    const { checkForUpdate } = await import('./update-check.js');
    await checkForUpdate(job.releaseUrl, job.cacheFile);
  }
}

const argument = process.argv[2];
if (argument && import.meta.url.endsWith('/background.js') && process.argv[1]?.endsWith('background.js')) {
  await runBackgroundJob(JSON.parse(argument) as BackgroundJob).catch(() => undefined);
}
