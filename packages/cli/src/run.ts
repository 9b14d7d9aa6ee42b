import { cliVersion } from './version.js';
import type { IO } from './core/io.js';

/**
 * Runs one `plinth` invocation: builds the command tree (loading only the group asked for), runs
 * it, and maps whatever it ends with to an exit code here and nowhere else. `--version` answers
 * before anything else is loaded, so it costs little more than starting Node.
 */
export async function run(argv: string[], given?: IO): Promise<number> {
  const version = cliVersion();
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    (given?.stdout ?? process.stdout).write(`plinth ${version}\n`);
    return 0;
  }
  const io = given ?? (await (await import('./core/io.js')).processIO());
  const [{ buildProgram }, { exitCodeOf, describeError }, { afterCommand }] = await Promise.all([
    import('./core/tree.js'),
    import('./core/exit-codes.js'),
    import('./core/after.js'),
  ]);
  const state = await buildProgram(io, version, argv);
  let code = 0;
  try {
    if (argv.length === 0) {
      io.stdout.write(`plinth ${version}\n\n`);
      state.program.outputHelp();
    } else {
      await state.program.parseAsync(argv, { from: 'user' });
    }
  } catch (error) {
    code = exitCodeOf(error);
    // Commander has already printed its own usage errors (and the usage) through configureOutput.
    if (!isCommanderError(error)) io.stderr.write(describeError(error));
    // A usage error a verb raised itself is followed by that verb's usage, like commander's own.
    if (code === 2 && !isCommanderError(error) && state.command) {
      const { usageOf } = await import('./core/tree.js');
      io.stderr.write(`${usageOf(state.command)}\n`);
    }
  }
  if (state.ran) await afterCommand(io, version, state.ran, code === 0, state.factory).catch(() => {});
  return code;
}

function isCommanderError(error: unknown): boolean {
  return typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('commander.');
}
