/**
 * Preloaded into the data API benchmark's servers (`node --import`): counts the statements each
 * server sends to its DuckDB warehouses and to its embedded metadata store, so the benchmark can
 * see from outside what a burst or a run of requests cost. On SIGUSR2 the counts are written as
 * JSON to BENCH_EXECUTIONS_FILE: `{warehouse, store, storeStatements: {sql: count}}`.
 */
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { DuckDBWarehouse } from '@plinth/semantic';

if (isMainThread) {
  let warehouse = 0;
  let store = 0;
  const storeStatements = {};
  const counted = (prototype, method, count) => {
    const original = prototype[method];
    prototype[method] = function (...args) {
      count(args[0]);
      return original.apply(this, args);
    };
  };
  counted(DuckDBWarehouse.prototype, 'query', () => warehouse++);
  for (const method of ['query', 'exec']) {
    counted(PGlite.prototype, method, (sql) => {
      store++;
      const text = String(sql).replace(/\s+/g, ' ').slice(0, 120);
      storeStatements[text] = (storeStatements[text] ?? 0) + 1;
    });
  }
  process.on('SIGUSR2', () => writeFileSync(process.env.BENCH_EXECUTIONS_FILE, JSON.stringify({ warehouse, store, storeStatements })));
}
