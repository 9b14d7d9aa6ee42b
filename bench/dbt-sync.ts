/**
 * Issue 15 dbt sync benchmark: a generated dbt project of 200 models (dbtproj's
 * writeGeneratedDbtProject) committed to a local Git repository, a deployment connected to it, and
 * syncs started through the service with a job runner polling as a server's does. Reported: the
 * wall time of each stage as the sync records it (clone, parse, generate, write; build is the
 * generated branch's build), and start → built. Target: under 10 s to a built branch.
 *
 *   npm run bench:dbt-sync     (ROUNDS=… syncs, MODELS=… models, PLINTH_JOB_POLL_MS=… the runner's idle poll)
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createGitRepo } from '../packages/server/src/git/test-repos.js';
import { createJobRunner } from '../packages/server/src/jobs/index.js';
import { writeGeneratedDbtProject } from '../packages/server/src/modules/dbt/project/fixtures.js';
import { inProcessDeployment } from './in-process.js';
import { machine, median, ms } from './lib.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const MODELS = Number(process.env['MODELS'] ?? 200);
const POLL_MS = process.env['PLINTH_JOB_POLL_MS'] ?? '100';
const STAGES = ['clone', 'parse', 'generate', 'write', 'build'] as const;

async function main(): Promise<void> {
  const { loadAverage, config, store, services, account, deployment } = await inProcessDeployment(POLL_MS);
  const repo = await createGitRepo({ 'README.md': '# bench\n' });
  await writeGeneratedDbtProject(repo.dir, MODELS);
  await repo.commit({}, `${MODELS} models`);
  await services.dbt.connect(account.id, deployment.id, { repository: repo.dir });
  const runner = createJobRunner({ store, services, config });
  await runner.start();

  const perStage = new Map<string, number[]>(STAGES.map((s) => [s, []]));
  const totals: number[] = [];
  let cubes = 0;
  let files = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const { syncJobId } = await services.dbt.startSync(account.id, deployment.id, {});
    let status = await services.dbt.status(account.id, deployment.id, syncJobId);
    while (status.status === 'QUEUED' || status.status === 'RUNNING') {
      await new Promise((resolve) => setTimeout(resolve, 5));
      status = await services.dbt.status(account.id, deployment.id, syncJobId);
    }
    if (status.status !== 'COMPLETED') throw new Error(`sync ${syncJobId} ended ${status.status}: ${status.error}`);
    totals.push(performance.now() - started);
    for (const stage of status.stages) {
      perStage.get(stage.name)!.push(Date.parse(stage.finishedAt!) - Date.parse(stage.startedAt!));
    }
    files = status.files.length;
    cubes = Number(/(\d+) cubes?/.exec(status.stages[2]!.message ?? '')?.[1] ?? 0);
  }
  await runner.stop();
  await repo.remove();
  await store.close();

  const rows = STAGES.map((s) => {
    const times = perStage.get(s)!;
    return `| ${s} | ${ms(median(times))} | ${ms(Math.min(...times))} | ${ms(Math.max(...times))} |`;
  });
  console.log(`## dbt sync (issue 15)

Command: \`npm run bench:dbt-sync\` (runs \`bench/dbt-sync.ts\`; ${ROUNDS} syncs of one commit).

Machine: ${machine()}; ${cpus().length} cores, load average ${loadAverage} at start. Store: PGlite (embedded), one process; job runner polling every ${POLL_MS} ms when idle.
Project: \`writeGeneratedDbtProject(dir, ${MODELS})\` in a local Git repository; ${cubes} cubes in ${files} generated files (ephemeral and disabled models skipped).

Per stage, as the sync records it (startedAt → finishedAt; build is the generated branch's build from queued to built):

| Stage | Median | Min | Max |
|---|---:|---:|---:|
${rows.join('\n')}
| **start → built** (POST to status COMPLETED, read every 5 ms) | **${ms(median(totals))}** | ${ms(Math.min(...totals))} | ${ms(Math.max(...totals))} |

Target: under 10 s to a built branch.
`);
}

await main();
