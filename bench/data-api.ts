/**
 * Issue 14 data API benchmark. A deployment set up the way the first-start demo is: the engine's
 * sample model deployed through the API (`plinth deploy`, in this process), built, and the sample
 * data written into `<dataDir>/warehouses/<id>.duckdb` before the server first opens it. Then, with
 * 16 connections, the sample's dashboard queries (bench/semantic-queries.ts) through HTTP `load`:
 *   - cache cold: a server with PLINTH_RESULT_CACHE_TTL_MS=0, each request's `limit` varied so no two
 *     requests in flight share an execution, against the engine called directly (`loadRequest` on a
 *     DuckDBWarehouse over a copy of the same file) with the same queries, in turn over the rounds;
 *   - cache warm: a server with the default TTL, against bench/bare-server.mjs, in turn;
 *   - 100 identical concurrent cold queries, and how many warehouse executions they caused (the
 *     server counts them: bench/count-executions.mjs is preloaded into it).
 *
 *   npm run bench:data-api     (BENCH_SECONDS, BENCH_ROUNDS, LINE_ITEMS to change the run; prints Markdown)
 *   BENCH_ONLY=warm npm run bench:data-api   (the warm rounds alone, e.g. while profiling them with BENCH_NODE_ARGS)
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile, DuckDBWarehouse, loadRequest, sampleModelFiles, writeSample, type Query } from '@plinth/semantic';
import { burst, deploySample, fetchLoad, loadPath, plinth, ROOT, tokenOf } from './data-api-server.js';
import autocannon from 'autocannon';
import { load, loadCalls, machine, median, ms, spawnServer, type LoadResult } from './lib.js';
import { QUERIES } from './semantic-queries.js';

const BARE = join(ROOT, 'bench/bare-server.mjs');
const CONNECTIONS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The demo deployment's size (the first start writes 50–200k line items); LINE_ITEMS=1000000 for the engine benchmark's. */
const LINE_ITEMS = Number(process.env.LINE_ITEMS ?? 200_000);
/** Limits varied over this many values: far more than requests in flight, so cold requests never share one. */
const SPREAD = 64;
/** `warm` skips the engine, cold and burst runs (their rows then read 0). */
const ONLY_WARM = process.env.BENCH_ONLY === 'warm';

// The sample model's dashboard queries: every one of semantic-queries.ts but the one needing its extra cube.
const DASHBOARD = QUERIES.filter((q) => !JSON.stringify(q.query).includes('order_facts'));

/**
 * Request k of a cold run: the k-th dashboard query with a limit of its own, so requests in flight
 * never share a key: 10,000 less up to 63 where the query has none (far above its rows), the
 * top-N query's N plus up to 63. The engine is given the very same queries.
 */
function coldQuery(k: number): Query {
  const { query } = DASHBOARD[k % DASHBOARD.length]!;
  const spread = Math.floor(k / DASHBOARD.length) % SPREAD;
  return { ...query, limit: query.limit === undefined ? 10_000 - spread : query.limit + spread };
}

/** CPU seconds a process has used (user + system), from /proc: per request it is steadier than req/s on a shared machine. */
function cpuSeconds(pid: number | undefined): { total: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { total: (Number(fields[11]) + Number(fields[12])) / 100, system: Number(fields[12]) / 100 };
}
const cpuSince = (pid: number | undefined, before: { total: number; system: number }, requests: number) => {
  const now = cpuSeconds(pid);
  return { total: (now.total - before.total) / requests, system: (now.system - before.system) / requests };
};

/**
 * One GET on kept-alive connections, its body as text. The cold loops use it rather than `fetch`,
 * which cost the benchmark process 0.6-0.8 ms of CPU per answer: CPU the engine's loops do not
 * spend, taken from the two cores the server's warehouse needs.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
function getText(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * The warm run: the dashboard's GET paths built once and sent in turn on every connection, so the
 * load generator does per request what it does for the bare route (a prepared request), not the
 * URL encoding of a query. Answers the figures and how many requests were sent, warm-up included.
 */
async function loadWarm(base: string, paths: string[], headers: Record<string, string>): Promise<LoadResult & { sent: number }> {
  const run = (duration: number) =>
    autocannon({ url: base, connections: CONNECTIONS, duration, headers, requests: paths.map((path) => ({ method: 'GET', path })) });
  const warmUp = await run(2);
  const result = await run(SECONDS);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    sent: warmUp.requests.total + result.requests.total,
  };
}

async function main(): Promise<void> {
  execFileSync('npx', ['tsc', '-b', 'packages/semantic', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
  const loadStart = loadavg()[0]!.toFixed(1);
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-data-api-'));
  const cold = await plinth(dataDir, { PLINTH_RESULT_CACHE_TTL_MS: '0' });
  const id = await deploySample(cold, dataDir);
  const token = await tokenOf(cold, id);
  const headers = { authorization: token };

  // The sample data, written where the server's embedded warehouse lives before anything opens it.
  const file = join(dataDir, 'warehouses', `${id}.duckdb`);
  mkdirSync(join(dataDir, 'warehouses'), { recursive: true });
  const writer = await DuckDBWarehouse.open({ path: file });
  await writeSample(writer, { lineItems: LINE_ITEMS });
  await writer.close();
  copyFileSync(file, join(dataDir, 'engine.duckdb'));
  const engine = await DuckDBWarehouse.open({ path: join(dataDir, 'engine.duckdb') });
  const { model, valid, errors } = compile(sampleModelFiles());
  if (!valid) throw new Error(JSON.stringify(errors));
  const direct = (k: number) => loadRequest(model, coldQuery(k), { warehouse: engine });

  // A fast wrong answer is no answer: the server and the engine must agree first.
  for (let k = 0; k < DASHBOARD.length; k++) {
    const served = await fetchLoad(cold, id, token, coldQuery(k));
    const own = (await direct(k)) as { data: unknown[] };
    if (JSON.stringify(served.data) !== JSON.stringify(own.data)) {
      throw new Error(`'${DASHBOARD[k]!.name}': the server answered ${JSON.stringify(served).slice(0, 300)}`);
    }
  }

  const rounds: Array<{
    engine: LoadResult;
    cold: LoadResult;
    engineCpu: number;
    coldCpu: number;
    perRequest: number;
    storePerRequest: number;
  }> = [];
  for (let round = 0; round < (ONLY_WARM ? 0 : ROUNDS); round++) {
    const engineCpuBefore = process.cpuUsage();
    const engineResult = await loadCalls(direct, { concurrency: CONNECTIONS, seconds: SECONDS });
    const engineCpu = process.cpuUsage(engineCpuBefore);
    const before = await cold.counts();
    const coldCpuBefore = cpuSeconds(cold.child.pid);
    let sent = 0; // the warm-up's requests and the measured ones, as the executions counted cover both
    // Measured like the engine (16 loops, each awaiting its answer), since a cold answer takes long enough
    // that autocannon's per-second counts would leave out the requests still running when its window closes.
    const coldResult = await loadCalls(
      async (k) => {
        sent++;
        const { status, body } = await getText(`${cold.base}${loadPath(id, coldQuery(k))}`, headers);
        if (status !== 200 || body.includes('"error"')) throw new Error(body);
      },
      { concurrency: CONNECTIONS, seconds: SECONDS },
    );
    // loadCalls counts the calls of the measured seconds; the warm-up's 2 s ran at about the same rate.
    const coldCpu = cpuSince(cold.child.pid, coldCpuBefore, Math.max(1, sent)).total;
    const after = await cold.counts();
    rounds.push({
      engine: engineResult,
      cold: coldResult,
      engineCpu: (engineCpu.user + engineCpu.system) / 1e6 / Math.max(1, engineResult.rps * (SECONDS + 2)),
      coldCpu,
      perRequest: (after.warehouse - before.warehouse) / Math.max(1, sent),
      storePerRequest: (after.store - before.store) / Math.max(1, sent),
    });
  }
  await engine.close();

  // 100 identical queries at once on this TTL 0 server: one execution serves those that arrive
  // while it runs; any arriving after it finished runs it again, as nothing is cached.
  const burstZero = await burst(cold, id, token, { ...DASHBOARD[1]!.query, limit: 4242 });
  await cold.stop();

  // The warm server opens the same data dir and warehouse; the bare route is measured in turn with it.
  const warm = await plinth(dataDir, {});
  // The same burst with the default TTL, on a query this server has never run: exactly one execution.
  await fetchLoad(warm, id, token, DASHBOARD[0]!.query); // the warehouse and model opened, as on a running server
  const burstOne = await burst(warm, id, token, { ...DASHBOARD[1]!.query, limit: 4243 });
  const bare = await spawnServer(BARE, {});
  type Cpu = { total: number; system: number };
  const warmRounds: Array<{ warm: LoadResult; bare: LoadResult; warmCpu: Cpu; bareCpu: Cpu }> = [];
  const warmBefore = await warm.counts();
  let warmSent = 0;
  const warmPaths = DASHBOARD.map((q) => loadPath(id, q.query));
  for (let round = 0; round < ROUNDS; round++) {
    const warmCpuBefore = cpuSeconds(warm.child.pid);
    const warmResult = await loadWarm(warm.base, warmPaths, headers);
    const warmCpu = cpuSince(warm.child.pid, warmCpuBefore, warmResult.sent);
    warmSent += warmResult.sent;
    const bareCpuBefore = cpuSeconds(bare.child.pid);
    const bareResult = await load(`http://127.0.0.1:${bare.port}/constant`, { connections: CONNECTIONS, seconds: SECONDS });
    // The bare run's requests are not counted apart from its figures: its req/s over the warm-up and the run.
    const bareCpu = cpuSince(bare.child.pid, bareCpuBefore, bareResult.rps * (SECONDS + 2));
    warmRounds.push({ warm: warmResult, bare: bareResult, warmCpu, bareCpu });
  }
  const warmAfter = await warm.counts();
  await warm.stop();
  await bare.stop();
  const warmStore = (warmAfter.store - warmBefore.store) / Math.max(1, warmSent);
  const warmWarehouse = warmAfter.warehouse - warmBefore.warehouse;
  const perWarmRequest = Object.entries(warmAfter.storeStatements)
    .map(([text, n]) => [text, (n - (warmBefore.storeStatements[text] ?? 0)) / Math.max(1, warmSent)] as const)
    .filter(([, n]) => n >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([text, n]) => `${n.toFixed(2)} × \`${text}\``);
  const loadEnd = loadavg()[0]!.toFixed(1);
  rmSync(dataDir, { recursive: true, force: true });

  const each = (results: LoadResult[]) => results.map((r) => r.rps).join(', ');
  const failures = (results: LoadResult[]) => results.reduce((n, r) => n + r.errors + r.non2xx, 0);
  const row = (label: string, results: LoadResult[], ratio: string, ratios: string) =>
    `| ${label} | ${each(results)} | ${ms(median(results.map((r) => r.p50)))} | ${ms(median(results.map((r) => r.p99)))} | ${ratio} | ${ratios} | ${failures(results)} |`;
  const coldRatios = rounds.map((r) => r.engine.rps / Math.max(1, r.cold.rps));
  const warmRatios = warmRounds.map((r) => r.warm.rps / r.bare.rps);
  const coldRatio = median(coldRatios);
  const warmRatio = median(warmRatios);
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
  const fmtUs = (xs: Array<{ total: number; system: number }>) =>
    xs.map((x) => `${(x.total * 1e6).toFixed(1)} (${(x.system * 1e6).toFixed(1)} system)`).join(', ');
  const perRequest = rounds.map((r) => r.perRequest.toFixed(2)).join(', ');
  process.stdout.write(
    [
      '## Data API (issue 14)',
      '',
      `Run: \`npm run bench:data-api\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${machine()}. Load average ${loadStart} at the start, ${loadEnd} at the end.`,
      `Deployment: the sample model deployed with \`plinth deploy\` and built; the sample data (${LINE_ITEMS.toLocaleString('en')} line items) in its embedded DuckDB file; metadata on PGlite.`,
      `Load: ${CONNECTIONS} connections, ${SECONDS} s after a 2 s warm-up, ${ROUNDS} rounds in turn; the ${DASHBOARD.length} dashboard queries of bench/semantic-queries.ts (${DASHBOARD.map((q) => q.name).join(', ')}) round robin, GET \`/d/{id}/cubejs-api/v1/load?query=…\` with a data API token. Latencies and ratios are medians over the rounds.`,
      '',
      '| what | req/s in each round | p50 | p99 | ratio | ratio in each round | errors |',
      '|---|---|---|---|---|---|---|',
      row(
        'engine directly: `loadRequest` on a DuckDBWarehouse, same queries, 16 at a time',
        rounds.map((r) => r.engine),
        '1.00',
        '',
      ),
      row(
        'HTTP load, cache cold (TTL 0, a distinct limit per request), 16 loops of GET on kept-alive connections',
        rounds.map((r) => r.cold),
        `${coldRatio.toFixed(2)}× slower`,
        fmt(coldRatios),
      ),
      row(
        'bare Fastify, constant JSON',
        warmRounds.map((r) => r.bare),
        '1.00',
        '',
      ),
      row(
        'HTTP load, cache warm',
        warmRounds.map((r) => r.warm),
        `${warmRatio.toFixed(2)} of bare`,
        fmt(warmRatios),
      ),
      '',
      `Cold: warehouse executions per request in each round (counted by the server): ${perRequest}; metadata store (PGlite) statements per request: ${rounds.map((r) => r.storePerRequest.toFixed(2)).join(', ')}.`,
      `Cold CPU per answer (user + system; the server's from /proc, the engine's the benchmark process's own while only its loops ran): server ${fmt(rounds.map((r) => r.coldCpu * 1e3))} ms, engine ${fmt(rounds.map((r) => r.engineCpu * 1e3))} ms in each round; ratio ${fmt(rounds.map((r) => r.coldCpu / r.engineCpu))}.`,
      `Server CPU per request (user + system, /proc): warm ${fmtUs(warmRounds.map((r) => r.warmCpu))} µs, bare ${fmtUs(warmRounds.map((r) => r.bareCpu))} µs in each round.`,
      `Warm: ${warmWarehouse} warehouse executions over ${warmSent} requests; metadata store statements per request ${warmStore.toFixed(2)}: ${perWarmRequest.join('; ') || 'none'}.`,
      `Target cold within 1.2× of the engine: ${coldRatio <= 1.2 ? 'met' : 'NOT met'} (${coldRatio.toFixed(2)}×). Target warm at least 0.6 of the bare route: ${warmRatio >= 0.6 ? 'met' : 'NOT met'} (${warmRatio.toFixed(2)}).`,
      '',
      `100 identical concurrent cold loads ('${DASHBOARD[1]!.name}', never asked before), default TTL: ${burstOne.answered} answered with data, **${burstOne.executions} warehouse execution${burstOne.executions === 1 ? '' : 's'}** (target: exactly 1). ` +
        `On the TTL 0 server: ${burstZero.answered} answered, ${burstZero.executions} executions (requests that arrive after the execution finished run it again, since nothing is cached).`,
      '',
    ].join('\n'),
  );
}

await main();
