import { randomInt } from 'node:crypto';
import { badRequest } from '../../http/errors.js';
import type { CreateReportInput, UpdateReportInput } from './schemas.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A fresh public id: 12 of 62 characters (71 bits), so a clash is a retry, not a failure a user sees. */
export function newPublicId(): string {
  let id = '';
  for (let i = 0; i < 12; i += 1) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/**
 * The parsed Cube query of `jsonQuery` text: it must be JSON, and a query object or an array of
 * them (what `/v1/load` takes). The schema only knows it is text, so the field is named here.
 */
export function parseJsonQuery(text: string): Record<string, unknown> | unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`jsonQuery is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object') {
    throw badRequest('jsonQuery must be a JSON object (a Cube query) or an array of them, as text');
  }
  return value as Record<string, unknown> | unknown[];
}

/** The report's name after a create or update: never empty. */
function checkName(name: string | null | undefined): void {
  if (name === null) throw badRequest('name cannot be null: give the report a name, or leave the field out');
  if (name !== undefined && name.trim() === '') throw badRequest('name must not be empty');
}

/**
 * How a report is drawn, in its `meta.chartType` (what the embed pages and creator mode read):
 * the chart types of the report model, `kpi` being the pages' other name for `number`.
 */
export const CHART_TYPES = ['line', 'bar', 'area', 'pie', 'table', 'number', 'kpi'] as const;

function checkChartType(meta: Record<string, unknown> | null | undefined): void {
  const chartType = meta?.chartType;
  if (chartType === undefined || chartType === null) return;
  if (typeof chartType !== 'string' || !(CHART_TYPES as readonly string[]).includes(chartType)) {
    throw badRequest(`meta.chartType: ${JSON.stringify(chartType)} is not a chart type; use one of ${CHART_TYPES.join(', ')}`);
  }
}

/** What a create or update checks beyond the schema: the name, the chart type, the queries' text, one kind of query. */
export function checkInput(input: CreateReportInput | UpdateReportInput, current?: { json_query: string | null; sql_query: string | null }) {
  checkName(input.name);
  checkChartType(input.meta as Record<string, unknown> | null | undefined);
  if (typeof input.jsonQuery === 'string') parseJsonQuery(input.jsonQuery);
  if (typeof input.sqlQuery === 'string' && input.sqlQuery.trim() === '') throw badRequest('sqlQuery must not be empty; use null for none');
  const json = input.jsonQuery !== undefined ? input.jsonQuery : (current?.json_query ?? null);
  const sqlText = input.sqlQuery !== undefined ? input.sqlQuery : (current?.sql_query ?? null);
  if (json !== null && sqlText !== null) {
    throw badRequest('A report holds jsonQuery or sqlQuery, not both: set the other one to null');
  }
}

/** The name a new report gets: the one given, else its title, else a placeholder. */
export function nameOf(input: CreateReportInput): string {
  const name = input.name ?? (input.title && input.title.trim() !== '' ? input.title : null);
  return (name ?? 'Untitled report').trim();
}
