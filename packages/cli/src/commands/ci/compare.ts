/**
 * `--expect` against the query's `data`: rows compare as a set (order and repeats do not matter),
 * and values by value, so the data API's numeric strings ("3", "3.50") equal the numbers 3 and 3.5
 * of an expectation written by hand.
 */
export interface Comparison {
  matches: boolean;
  missing: Array<Record<string, unknown>>;
  unexpected: Array<Record<string, unknown>>;
}

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

function canonicalValue(value: unknown): unknown {
  if (typeof value === 'number') return { n: value };
  if (typeof value === 'string' && NUMERIC.test(value)) return { n: Number(value) };
  if (typeof value === 'bigint') return { n: Number(value) };
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (value !== null && typeof value === 'object') return canonicalRow(value as Record<string, unknown>);
  return value;
}

function canonicalRow(row: Record<string, unknown>): Array<[string, unknown]> {
  return Object.keys(row)
    .sort()
    .map((key) => [key, canonicalValue(row[key])]);
}

const keyOf = (row: Record<string, unknown>) => JSON.stringify(canonicalRow(row));

export function compareRows(actual: ReadonlyArray<Record<string, unknown>>, expected: ReadonlyArray<Record<string, unknown>>): Comparison {
  const actualKeys = new Set(actual.map(keyOf));
  const expectedKeys = new Set(expected.map(keyOf));
  const missing = dedupe(expected.filter((row) => !actualKeys.has(keyOf(row))));
  const unexpected = dedupe(actual.filter((row) => !expectedKeys.has(keyOf(row))));
  return { matches: missing.length === 0 && unexpected.length === 0, missing, unexpected };
}

function dedupe(rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = keyOf(row);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `--expect` must be the expected `data` array: a list of row objects. */
export function expectedRows(value: unknown): Array<Record<string, unknown>> | string {
  if (!Array.isArray(value)) return 'must be a JSON array of rows (the expected `data` of the answer)';
  const bad = value.findIndex((row) => row === null || typeof row !== 'object' || Array.isArray(row));
  if (bad >= 0) return `row ${bad + 1} is not a JSON object`;
  return value as Array<Record<string, unknown>>;
}

/** The lines saying which rows differ, at most `limit` of each kind. */
export function describeDifference(comparison: Comparison, limit = 10): string[] {
  const lines: string[] = [];
  const list = (label: string, rows: Array<Record<string, unknown>>) => {
    if (rows.length === 0) return;
    lines.push(`${rows.length} ${label} row${rows.length === 1 ? '' : 's'}:`);
    for (const row of rows.slice(0, limit)) lines.push(`  ${JSON.stringify(row)}`);
    if (rows.length > limit) lines.push(`  … and ${rows.length - limit} more`);
  };
  list('missing (expected, not returned)', comparison.missing);
  list('unexpected (returned, not expected)', comparison.unexpected);
  return lines;
}
