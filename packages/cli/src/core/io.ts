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
  /** Standard input is a terminal: a person can be asked for a password. */
  stdinIsTTY: boolean;
  /**
   * Asks for a secret on the terminal without echoing it (the prompt goes to stderr). Only called
   * when `stdinIsTTY`; rejects when the person presses Ctrl-C or Ctrl-D.
   */
  promptSecret(prompt: string): Promise<string>;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  platform: NodeJS.Platform;
  homedir: string;
  /** Starts work that must never delay the command (telemetry, update check). */
  background(job: BackgroundJob): void;
  /**
   * Pauses between two polls of the server. The real one waits on the clock; a test waits on the
   * event the poll is for, so it never sleeps through an interval.
   */
  wait(ms: number): Promise<void>;
  /**
   * A signal aborted when the person interrupts the command (Ctrl-C, SIGINT). Only a command that
   * runs until interrupted (`logs --follow`) asks for it; it then ends normally, with exit code 0.
   * Absent: nothing interrupts.
   */
  interrupted?(): AbortSignal;
}

export type BackgroundJob =
  { kind: 'telemetry'; url: string; event: Record<string, unknown> } | { kind: 'update-check'; releaseUrl: string; cacheFile: string };

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
    stdinIsTTY: process.stdin.isTTY === true,
    promptSecret: (prompt) => promptSecret(prompt),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    platform: process.platform,
    homedir: homedir(),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
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
    interrupted: () => {
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      return controller.signal;
    },
  };
}

/** Reads one line from the terminal in raw mode, echoing nothing; Backspace edits, Ctrl-C/Ctrl-D cancel. */
function promptSecret(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003' || char === '\u0004') return finish(new Error('Cancelled'));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}
