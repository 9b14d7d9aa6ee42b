import { describe, expect, it } from 'vitest';
import { CommandError } from './command.js';
import { processRole } from './roles.js';

describe('the process role from the command line', () => {
  it.each([
    [[], { role: 'serve', queues: undefined }],
    [['--queues', 'maintenance'], { role: 'serve', queues: ['maintenance'] }],
    [['worker'], { role: 'worker', queues: undefined }],
    [['worker', '--queues', 'builds,rollups'], { role: 'worker', queues: ['builds', 'rollups'] }],
    [['worker', '--queues=builds, builds'], { role: 'worker', queues: ['builds'] }],
    [['worker', '--queues', 'none'], { role: 'worker', queues: [] }],
  ])('%j is %j', (args, role) => {
    expect(processRole(args)).toEqual(role);
  });

  it.each([['accounts', 'list'], ['help']])('%j is another command', (...args) => {
    expect(processRole(args)).toBeUndefined();
  });

  it.each([
    [
      ['worker', '--queues', 'builds,nope'],
      '--queues: "nope" is not a queue; the queues are builds, rollups, rendering, delivery, imports, maintenance',
    ],
    [['worker', '--queues'], '--queues needs a comma-separated list of queues'],
    [['worker', '--queues', 'builds,'], '--queues: must be a comma-separated list of queue names, none empty'],
    [['worker', '--queues', 'builds', '--queues', 'rollups'], '--queues is given twice'],
    [['worker', '--threads', '2'], 'unknown option "--threads"'],
    [['--port', '80'], 'unknown option "--port"'],
  ])('%j is a usage error (exit 2) saying: %s', (args, message) => {
    let thrown: unknown;
    try {
      processRole(args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CommandError);
    expect((thrown as CommandError).exitCode).toBe(2);
    expect((thrown as Error).message).toContain(message);
  });
});
