import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';

/** Resolved here, so the child finds the driver whatever directory the test runs in. */
const NODE_API = createRequire(import.meta.url).resolve('@duckdb/node-api');

export interface HeldFile {
  /** The holder's pid, which DuckDB names in the lock error of anyone else opening the file. */
  pid: number;
  /** Closes the file and ends the holder. */
  release(): Promise<void>;
}

/**
 * Another process holding a DuckDB file, read-write as a tool writing an account's file in place
 * does, or read-only as another server does: DuckDB's lock is an fcntl lock, which only another
 * process can conflict with, so a handle in the test's own process would let every open through.
 * Resolves once the file is held (the child says so), and holds it until released.
 */
export async function holdDuckDBFile(path: string, { readOnly = false } = {}): Promise<HeldFile> {
  const config = readOnly ? { access_mode: 'READ_ONLY' } : {};
  const script = `
    const { DuckDBInstance } = require(${JSON.stringify(NODE_API)});
    DuckDBInstance.create(${JSON.stringify(path)}, ${JSON.stringify(config)}).then((instance) => {
      process.stdout.write('held\\n');
      process.stdin.resume();
      process.stdin.on('end', () => { instance.closeSync(); process.exit(0); });
    }, (error) => { process.stderr.write(String(error)); process.exit(1); });
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  const held = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('held\n')) resolve();
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', () => reject(new Error(`the holder of ${path} exited: ${output}`)));
  });
  const exited = once(child, 'exit');
  await held;
  return {
    pid: child.pid!,
    async release() {
      child.stdin.end();
      await exited;
    },
  };
}
