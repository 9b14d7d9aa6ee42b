/**
 * Issue 13 build benchmark: the 500-cube model of the engine's compile benchmark (bench/semantic.ts)
 * committed to a branch of a deployment on PGlite, then the time from queueBuild to the build
 * reading `built`, with a job runner polling as a server's does. Two layouts: the engine
 * benchmark's single file, and one file per cube (what `plinth deploy` of a real model sends).
 * The first build of a process also starts the compile thread; it is reported apart.
 *
 *   npm run bench:build            (ROUNDS=… runs per layout, PLINTH_JOB_POLL_MS=… the runner's idle poll)
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ApiKeyPrincipal } from '../packages/server/src/http/principal.js';
import { createJobRunner } from '../packages/server/src/jobs/index.js';
import { inProcessDeployment } from './in-process.js';
import { machine, median, ms } from './lib.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const POLL_MS = process.env['PLINTH_JOB_POLL_MS'] ?? '100';

/** bench/semantic.ts's bigModel: 500 cubes of 20 members, each joined to the previous one. */
function cubeYaml(i: number): string {
  const dims = Array.from({ length: 9 }, (_, k) => `      - name: d${k}\n        sql: c${k}\n        type: string\n`).join('');
  const measures = Array.from({ length: 10 }, (_, k) => `      - name: m${k}\n        sql: v${k}\n        type: sum\n`).join('');
  const join =
    i > 0 ? `    joins:\n      - name: c${i - 1}\n        relationship: many_to_one\n        sql: "{CUBE}.p = {c${i - 1}.id}"\n` : '';
  return `  - name: c${i}\n    sql_table: t${i}\n${join}    dimensions:\n      - name: id\n        sql: id\n        type: number\n        primary_key: true\n${dims}    measures:\n${measures}`;
}
const CUBES = Array.from({ length: 500 }, (_, i) => cubeYaml(i));
const LAYOUTS: Record<string, (round: number) => Record<string, string>> = {
  'one file (model/big.yml)': (round) => ({ 'model/big.yml': `# round ${round}\ncubes:\n${CUBES.join('')}` }),
  '500 files (model/cubes/c<i>.yml)': (round) =>
    Object.fromEntries(CUBES.map((cube, i) => [`model/cubes/c${i}.yml`, `${i === 0 ? `# round ${round}\n` : ''}cubes:\n${cube}`])),
};

async function main(): Promise<void> {
  const { loadAverage, config, store, services, account, deployment } = await inProcessDeployment(POLL_MS);
  const principal: ApiKeyPrincipal = {
    kind: 'apiKey',
    accountId: account.id,
    credentialId: 1,
    userId: 1,
    role: 'admin',
    deploymentIds: null,
  };
  const runner = createJobRunner({ store, services, config });
  await runner.start();

  /** Commits the files to main (no build), then times queueBuild → built. */
  const buildOnce = async (files: Record<string, string>): Promise<number> => {
    const branch = await services.dataModel.target(principal, deployment.id, 'main');
    const hashes = await services.dataModel.storeBlobs(account.id, Object.values(files));
    const entries = Object.fromEntries(Object.keys(files).map((path, i) => [path, hashes[i]!]));
    const { commitId } = await services.dataModel.commitTree(principal, branch, {
      entries,
      baseCommitId: Number(branch.head_commit_id),
      message: 'bench',
    });
    const started = performance.now();
    const { buildId } = await services.builds.queueBuild({
      accountId: account.id,
      deploymentId: deployment.id,
      branchName: 'main',
      commitId,
      trigger: 'rebuild',
    });
    for (;;) {
      const build = await store.db
        .selectFrom('model_build')
        .select(['status', 'cubes_count'])
        .where('id', '=', buildId)
        .executeTakeFirstOrThrow();
      if (build.status === 'built' && build.cubes_count === 500) return performance.now() - started;
      if (build.status !== 'queued' && build.status !== 'building') throw new Error(`build ${buildId} ended ${build.status}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  const rows: string[] = [];
  let first: number | undefined;
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    const times: number[] = [];
    const compileTimes: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const files = layout(round + (first === undefined ? 0 : 1000));
      const t = await buildOnce(files);
      if (first === undefined) first = t;
      else times.push(t);
      // The compile alone, on the same thread, for what the job adds around it.
      const c = performance.now();
      await services.builds.compileFiles(new Map(Object.entries(files)));
      compileTimes.push(performance.now() - c);
    }
    rows.push(`| ${name} | ${ms(median(times))} | ${ms(Math.min(...times))} | ${ms(Math.max(...times))} | ${ms(median(compileTimes))} |`);
  }
  await runner.stop();
  await store.close();

  console.log(`## Data-model builds (issue 13)

Command: \`npm run bench:build\` (runs \`bench/build.ts\`; \`ROUNDS\` runs per layout, ${ROUNDS} here).

Machine: ${machine()}; ${cpus().length} cores, load average ${loadAverage} at start. Store: PGlite (embedded), one process; job runner polling every ${POLL_MS} ms when idle.

Queued to built (\`queueBuild\` → status \`built\` with 500 cubes, read every 5 ms): the runner claims the job, reads the commit's files, compiles them on the compile thread and records the result.

| Model | Median | Min | Max | Compile alone (median) |
|---|---:|---:|---:|---:|
${rows.join('\n')}

First build of the process (starts the compile thread and loads the engine): ${ms(first!)}. Target: under 2 s.
`);
}

await main();
