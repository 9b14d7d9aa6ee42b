import { buildPath, done, failed, type Gate } from './context.js';
import { finishLease } from './lease.js';

/**
 * What runs however the gate ended: dev mode is exited always; both branches are deleted when the
 * gate passed and kept when it failed, for a person to look at; the lease is finished last. Each
 * part runs even when one before it failed; the failures are returned.
 */
export async function cleanUp(gate: Gate, passed: boolean): Promise<string[]> {
  const problems: string[] = [];
  const attempt = async (step: 'exit-dev-mode' | 'delete-branches' | 'finish', work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failed(gate, step, message);
      problems.push(`${step}: ${message}`);
    }
  };
  await attempt('exit-dev-mode', async () => {
    await gate.client.request('DELETE', buildPath(gate, '/dev-mode'));
    gate.state.devModeExited = true;
    done(gate, 'exit-dev-mode', 'dev mode exited');
  });
  const branches = [gate.state.devBranch, gate.state.generatedBranch].filter((name): name is string => name !== null);
  if (passed && problems.length === 0) {
    await attempt('delete-branches', async () => {
      for (const name of branches) await gate.client.request('DELETE', buildPath(gate, `/branches/${encodeURIComponent(name)}`));
      gate.state.branchesDeleted = true;
      done(gate, 'delete-branches', branches.length ? `deleted ${branches.join(' and ')}` : 'no branch to delete');
    });
  } else if (branches.length > 0) {
    gate.output.notice(`[delete-branches] kept ${branches.join(' and ')} for inspection`);
  }
  await attempt('finish', () => finishLease(gate, passed && problems.length === 0));
  return problems;
}
