import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** Where `npm test` leaves the times of its last run, slowest file first. */
export const TIMES_FILE = 'test-times.txt';

/**
 * Writes the time of every test file and of the whole run (with the machine and its load) to
 * test-times.txt, so the slowest files are one `head` away and a run's cost can be compared with
 * the last. Wall time of a file is import (collect) plus its tests and hooks.
 */
export default class TimingReporter implements Reporter {
  private started = Date.now();
  private loadAtStart = loadavg()[0]!;

  onTestRunStart(): void {
    this.started = Date.now();
    this.loadAtStart = loadavg()[0]!;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules.map((module) => {
      const { collectDuration, setupDuration, duration } = module.diagnostic();
      let tests = 0;
      for (const _ of module.children.allTests('passed')) tests += 1;
      return {
        file: relative(process.cwd(), module.moduleId),
        seconds: (collectDuration + setupDuration + duration) / 1000,
        importSeconds: collectDuration / 1000,
        tests,
        state: module.state(),
      };
    });
    rows.sort((a, b) => b.seconds - a.seconds);
    const wall = (Date.now() - this.started) / 1000;
    const sum = rows.reduce((total, row) => total + row.seconds, 0);
    const header = [
      `# vitest run of ${new Date(this.started).toISOString()}: ${rows.length} files in ${wall.toFixed(0)} s wall, ${sum.toFixed(0)} s summed over files`,
      `# machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load ${this.loadAtStart.toFixed(2)} at start and ${loadavg()[0]!.toFixed(2)} at end`,
      `# seconds  import  tests  state   file`,
    ];
    const lines = rows.map(
      (row) =>
        `${row.seconds.toFixed(1).padStart(9)} ${row.importSeconds.toFixed(1).padStart(7)} ${String(row.tests).padStart(6)}  ${row.state.padEnd(7)} ${row.file}`,
    );
    writeFileSync(TIMES_FILE, `${[...header, ...lines].join('\n')}\n`);
  }
}
