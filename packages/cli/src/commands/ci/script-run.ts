import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** examples/ci/dbt-gate.sh, the curl + jq gate the tests run for real with bash. */
export const GATE_SCRIPT = fileURLToPath(new URL('../../../../../examples/ci/dbt-gate.sh', import.meta.url));

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the script in a child bash (asynchronously: the server under test answers it from this
 * process), with the query and expectation written to files as a CI job would keep them.
 */
export async function runGateScript(
  env: Record<string, string>,
  args: { deploymentId: number; ref: string; query: unknown; expect?: unknown },
  /** Sends `signal` to the script once its stderr shows `when` (a CI runner cancelling the job). */
  kill?: { when: string; signal: NodeJS.Signals },
): Promise<ScriptResult> {
  const dir = await mkdtemp(join(tmpdir(), 'plinth-gate-script-'));
  const queryFile = join(dir, 'query.json');
  await writeFile(queryFile, JSON.stringify(args.query));
  const argv = [GATE_SCRIPT, String(args.deploymentId), args.ref, queryFile];
  if (args.expect !== undefined) {
    const expectFile = join(dir, 'expected.json');
    await writeFile(expectFile, JSON.stringify(args.expect));
    argv.push(expectFile);
  }
  return new Promise((resolve) => {
    let sent = false;
    const child = execFile(
      'bash',
      argv,
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 300_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (kill && !sent && seen.includes(kill.when)) {
        sent = true;
        child.kill(kill.signal);
      }
    });
  });
}
