#!/usr/bin/env node
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { compile } from './compiler/compile.js';
import type { CompileError } from './compiler/diagnostics.js';
import { openWarehouse } from './drivers/open.js';
import { QueryError, WarehouseUnavailableError } from './errors.js';
import { loadRequest } from './load.js';
import { fanOut } from './planner/fan-out.js';
import type { Caller } from './model.js';
import { planQuery } from './planner/plan.js';
import { DEFAULT_LINE_ITEMS, writeSample } from './sample/sample.js';
import { duckdbDialect } from './dialects/duckdb.js';
import { postgresDialect } from './dialects/postgres.js';

const USAGE = `Usage:
  plinth-semantic validate <model dir> [--compile-context <json>]
  plinth-semantic sql <model dir> --query <json> [--dialect duckdb|postgres] [--caller <json>] [--compile-context <json>]
  plinth-semantic load <model dir> --warehouse duckdb:<file>|postgres://… --query <json> [--caller <json>] [--compile-context <json>]
  plinth-semantic sample --warehouse duckdb:<file>|postgres://… [--scale N] [--model <dir>] [--schema <name>]`;

/** Reads every file below `dir`; paths are made to start with `model/` as the compiler expects. */
export function readModelDir(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const hasModelDir = (() => {
    try {
      return statSync(join(dir, 'model')).isDirectory();
    } catch {
      return false;
    }
  })();
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const rel = relative(dir, full).split(sep).join('/');
        files.set(hasModelDir ? rel : `model/${rel}`, readFileSync(full, 'utf8'));
      }
    }
  };
  walk(dir);
  return files;
}

function json(text: string | undefined, what: string): unknown {
  if (text === undefined) throw new UsageError(`--${what} is required`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`--${what} is not valid JSON`);
  }
}

function caller(text: string | undefined): Caller | undefined {
  if (text === undefined) return undefined;
  const c = json(text, 'caller') as Partial<Caller>;
  return { groups: c.groups ?? [], userAttributes: c.userAttributes ?? {}, securityContext: c.securityContext ?? {} };
}

function compileContext(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  const value = json(text, 'compile-context');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('--compile-context must be a JSON object');
  return value as Record<string, unknown>;
}

function describeError(error: CompileError): string {
  return `${error.fileName}${error.line === undefined ? '' : `:${error.line}`}: ${error.message}`;
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      query: { type: 'string' },
      warehouse: { type: 'string' },
      caller: { type: 'string' },
      dialect: { type: 'string' },
      scale: { type: 'string' },
      model: { type: 'string' },
      schema: { type: 'string' },
      'compile-context': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const [command, dir] = positionals;
  const out = (v: unknown): void => void process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  if (command === 'sample') {
    if (!values.warehouse) throw new UsageError('--warehouse is required');
    const scale = values.scale === undefined ? DEFAULT_LINE_ITEMS : Number(values.scale);
    if (!Number.isInteger(scale) || scale <= 0) throw new UsageError('--scale must be a positive integer (number of line items)');
    const warehouse = await openWarehouse(values.warehouse);
    try {
      const files = await writeSample(warehouse, { lineItems: scale, schema: values.schema });
      const target = values.model ?? 'plinth-sample';
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(target, path)), { recursive: true });
        writeFileSync(join(target, path), text);
      }
      out({ warehouse: values.warehouse, lineItems: scale, model: target });
    } finally {
      await warehouse.close();
    }
    return 0;
  }
  if (!dir) throw new UsageError(`${command} needs a model directory`);
  const result = compile(readModelDir(dir), { compileContext: compileContext(values['compile-context']) });
  // Humans and editors read `file:line: message`; tools read the JSON on standard output.
  for (const error of result.errors) process.stderr.write(`${describeError(error)}\n`);
  if (command === 'validate') {
    out({ valid: result.valid, errors: result.errors, cubesCount: result.cubesCount });
    return result.valid ? 0 : 1;
  }
  if (!result.valid) {
    out({ valid: false, errors: result.errors, cubesCount: result.cubesCount });
    return 1;
  }
  if (command === 'sql') {
    const dialect = values.dialect === 'postgres' ? postgresDialect : duckdbDialect;
    const plan = planQuery(result.model, json(values.query, 'query'), { dialect, caller: caller(values.caller) });
    out({ sql: plan.sql, params: plan.params, ...(plan.total ? { total: plan.total } : {}) });
    return 0;
  }
  if (command === 'load') {
    if (!values.warehouse) throw new UsageError('--warehouse is required');
    const query = json(values.query, 'query');
    const warehouse = await openWarehouse(values.warehouse);
    try {
      // As the data API answers a client that takes the multi shape: a compareDateRange or blending
      // query (an array) gets one result per query; a regular one keeps its single shape.
      const multi = fanOut(query, new Date()).queryType !== 'regularQuery';
      out(await loadRequest(result.model, query, { warehouse, caller: caller(values.caller), ...(multi ? { queryType: 'multi' } : {}) }));
    } finally {
      await warehouse.close();
    }
    return 0;
  }
  throw new UsageError(`Unknown command '${command}'`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`${error.message}\n${USAGE}\n`);
    else if (error instanceof QueryError) process.stderr.write(`${JSON.stringify({ error: error.message })}\n`);
    // The one running the CLI is the operator: the file and what holds it are theirs to know.
    else if (error instanceof WarehouseUnavailableError) process.stderr.write(`${error.message}: ${error.detail}\n`);
    else process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
