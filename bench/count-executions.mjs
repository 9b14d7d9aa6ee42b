/**
 * Preloaded into the data API benchmark's server (`node --import`): counts the statements the
 * server sends to its DuckDB warehouses, so the benchmark can see from outside how many warehouse
 * executions a burst of queries caused. On SIGUSR2 the count is written to BENCH_EXECUTIONS_FILE.
 */
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { DuckDBWarehouse } from '@plinth/semantic';

if (isMainThread) {
  let executions = 0;
  const query = DuckDBWarehouse.prototype.query;
  DuckDBWarehouse.prototype.query = function (...args) {
    executions++;
    return query.apply(this, args);
  };
  process.on('SIGUSR2', () => writeFileSync(process.env.BENCH_EXECUTIONS_FILE, String(executions)));
}
