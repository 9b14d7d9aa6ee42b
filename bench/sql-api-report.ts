/** The SQL API benchmark's row-limit probe and its figures as a section of bench/RESULTS.md. */
import { connect, type BenchQuery, type Concurrent, type Footprint, type Latency, type SqlLogin } from './sql-api-runs.js';

/** The most rows one data API query may ask for on the benchmark's servers (PLINTH_DATA_API_MAX_LIMIT, the engine's most). */
const CAP = 50_000;

export interface LimitProbe {
  cap: number;
  /** Rows a query over `bench_rows` without LIMIT answered. */
  noLimitRows: number;
  /** The answer to `LIMIT <big>`: its error when refused. */
  bigRefused?: string;
  bigRows?: number;
}

/** What the SQL API does with a query asking for every row, with and without a LIMIT. */
export async function limitProbe(login: SqlLogin, big: number): Promise<LimitProbe> {
  const client = await connect(login);
  try {
    const noLimit = await client.query({ text: 'SELECT id FROM bench_rows', rowMode: 'array' });
    const asked = await client.query({ text: `SELECT id FROM bench_rows LIMIT ${big}`, rowMode: 'array' }).then(
      (r) => ({ bigRows: r.rows.length }),
      (error: { message: string; code?: string }) => ({ bigRefused: `${error.code}: ${error.message}` }),
    );
    return { cap: CAP, noLimitRows: noLimit.rows.length, ...asked };
  } finally {
    await client.end();
  }
}

export interface Figures {
  commit: string;
  machine: string;
  loadStart: string[];
  loadEnd: string[];
  duration: number;
  rounds: number;
  lineItems: number;
  bigRows: number;
  queries: BenchQuery[];
  warm: Record<string, Latency>;
  cold: Record<string, Latency>;
  load: Concurrent;
  probe: LimitProbe;
  memory: Array<Footprint & { how: string; asked: number }>;
}

const f = (ms: number) => ms.toFixed(ms < 10 ? 2 : 1);
const mib = (n: number) => n.toFixed(0);

function latencyTable(label: string, by: Record<string, Latency>): string[] {
  const http = by['http']!;
  const row = (name: string, what: string) => {
    const l = by[name]!;
    const cpu = `${f(l.cpuMs ?? NaN)} | ${((l.cpuMs ?? NaN) / (http.cpuMs ?? NaN)).toFixed(2)}×`;
    return `| ${label} | ${what} | ${f(l.p50)} | ${f(l.p95)} | ${f(l.p99)} | ${(l.p50 / http.p50).toFixed(2)}× / ${(l.p99 / http.p99).toFixed(2)}× | ${cpu} |`;
  };
  return [
    row('simple', 'wire, simple query protocol'),
    row('extended', 'wire, extended protocol (Parse/Bind/Execute)'),
    row('http', 'HTTP GET /cubejs-api/v1/load'),
  ];
}

const verdict = (by: Record<string, Latency>) => {
  const worst = Math.max(...['simple', 'extended'].map((s) => by[s]!.p50 / by['http']!.p50));
  const cpu = Math.max(...['simple', 'extended'].map((s) => (by[s]!.cpuMs ?? NaN) / (by['http']!.cpuMs ?? NaN)));
  return `${worst <= 1.2 ? 'met' : 'NOT met'} by p50 (worst wire p50 ${worst.toFixed(2)}× of /load), ${cpu <= 1.2 ? 'met' : 'NOT met'} by server CPU per request (worst ${cpu.toFixed(2)}×)`;
};

export function report(x: Figures): string {
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const small = x.memory.filter((m) => m.asked === Math.min(...x.memory.map((n) => n.asked)));
  const large = x.memory.filter((m) => m.asked === Math.max(...x.memory.map((n) => n.asked)));
  const growth = large.map((m) => {
    const s = small.find((n) => n.how === m.how)!;
    return `${m.how} ${((m.peakMiB - m.baselineMiB) / Math.max(1, s.peakMiB - s.baselineMiB)).toFixed(1)}×`;
  });
  const probe = x.probe.bigRefused
    ? `\`LIMIT ${x.bigRows.toLocaleString('en')}\` is refused (${x.probe.bigRefused}); so the large result measured is the most one query may return, ${x.probe.cap.toLocaleString('en')} rows (PLINTH_DATA_API_MAX_LIMIT=50000, the engine's maximum), against a tenth of it.`
    : `\`LIMIT ${x.bigRows.toLocaleString('en')}\` answers ${x.probe.bigRows?.toLocaleString('en')} rows.`;
  const noLimit =
    x.probe.noLimitRows === x.bigRows
      ? `A query over \`bench_rows\` without LIMIT answers all ${x.probe.noLimitRows.toLocaleString('en')} rows (streamed, as Cube's SQL API streams).`
      : `A query over \`bench_rows\` without LIMIT answers ${x.probe.noLimitRows.toLocaleString('en')} rows of ${x.bigRows.toLocaleString('en')}.`;
  const busy = Number(x.loadStart[0]) > 2 || Number(x.loadEnd[0]) > 3;
  return [
    `## SQL API over the PostgreSQL wire (${when} UTC, code ${x.commit})`,
    '',
    `Run: \`npm run bench:sql-api -- --duration ${x.duration}\` (ROUNDS=${x.rounds}). Machine: ${x.machine}; load average ${x.loadStart.join(', ')} at the start, ${x.loadEnd.join(', ')} at the end${busy ? '. **Busy machine**: other work ran meanwhile; compare ratios, not absolute times' : ', nothing else running'}.`,
    `Server: the built \`plinth-server\`, metadata on PGlite, the sample model and data (${x.lineItems.toLocaleString('en')} line items) in the deployment's embedded DuckDB, plus \`bench_rows\` (${x.bigRows.toLocaleString('en')} rows). One data API token is the HTTP caller and the SQL login (user \`token\`).`,
    `Queries: the ${x.queries.length} pushed-down queries of the SQL API's query set (sql-equivalents.ts); /load is sent the very semantic query the SQL API sends the data API for each. One request at a time on one connection, ${x.rounds} rounds, each query's three surfaces back to back in a turning order. Cache warm: default TTL, every query asked once on each surface first, so all three read the result cache. Cache off: PLINTH_RESULT_CACHE_TTL_MS=0, every request runs on DuckDB. Server CPU per request: /proc/<pid>/stat user + system over as many requests again, each surface alone (steadier than latency on a busy machine: 10 ms ticks over ${x.rounds * x.queries.length} requests).`,
    '',
    '| cache | surface | p50 ms | p95 ms | p99 ms | p50 / p99 vs /load | server CPU ms per request | CPU vs /load |',
    '|---|---|---|---|---|---|---|---|',
    ...latencyTable('warm', x.warm),
    ...latencyTable('off', x.cold),
    '',
    `Target wire within 1.2× of /load: cache warm ${verdict(x.warm)}; cache off ${verdict(x.cold)}.`,
    '',
    `${x.load.connections} connections for ${x.load.seconds.toFixed(0)} s (cache warm, the same queries in turn, simple and extended protocol alternately): ${x.load.queries.toLocaleString('en')} queries, **${x.load.errors} errors**${x.load.firstError ? ` (first: ${x.load.firstError})` : ''}, ${x.load.perSecond.toFixed(0)} queries/s, p50 ${f(x.load.p50)} ms, p95 ${f(x.load.p95)} ms, p99 ${f(x.load.p99)} ms.`,
    '',
    `Large results (cache off; psql reading, the server's VmRSS sampled every 10 ms from /proc). ${noLimit} ${probe}`,
    '',
    '| how | rows asked | rows read | time | RSS before MiB | peak MiB | peak − before MiB | KiB per row | error |',
    '|---|---|---|---|---|---|---|---|---|',
    ...x.memory.map(
      (m) =>
        `| ${m.how} | ${m.asked.toLocaleString('en')} | ${m.rows.toLocaleString('en')} | ${(m.ms / 1000).toFixed(2)} s | ${mib(m.baselineMiB)} | ${mib(m.peakMiB)} | ${mib(m.peakMiB - m.baselineMiB)} | ${(((m.peakMiB - m.baselineMiB) * 1024) / Math.max(1, m.rows)).toFixed(2)} | ${m.error ?? ''} |`,
    ),
    '',
    `Memory growth for 10× the rows: ${growth.join(', ')} (flat would be about 1×; the smaller result's rise is within a few MiB of sampling noise, so the per-row figure of the larger one says more).`,
    '',
  ].join('\n');
}
