/**
 * Everything a command touches outside itself: streams, environment, terminal state and where
 * background work goes. `processIO()` is the real one; tests build their own and run the command
 * tree in-process.
 */
export interface IO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Reads all of standard input (for `-d -`). */
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  platform: NodeJS.Platform;
  homedir: string;
  /** Starts work that must never delay the command (telemetry, update check). */
  background(job: BackgroundJob): void;
}

export type BackgroundJob =
  | { kind: 'telemetry'; url: string; event: Record<string, unknown> }
  | { kind: 'update-check'; releaseUrl: string; cacheFile: string };

export async function processIO(): Promise<IO> {
  const { homedir } = await import('node:os');
  // A closed pipe (`plinth … | head`) ends the output, not the process with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    platform: process.platform,
    homedir: homedir(),
    background: (job) => {
      // A detached child does the work, so this process exits as soon as the command is done.
      void import('node:child_process').then(({ spawn }) => {
        const child = spawn(process.execPath, [new URL('./background.js', import.meta.url).pathname, JSON.stringify(job)], {
          detached: true,
          stdio: 'ignore',
          env: process.env,
        });
        child.on('error', () => {});
        child.unref();
      });
    },
  };
}
