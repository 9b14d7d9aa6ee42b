import { describe, expect, it } from 'vitest';
import { CATALOG_MAX_COST, CATALOG_MAX_ROWS, catalogPlanProblem } from './catalog-guard.js';

const node = (type: string, cost: number, rows: number, plans: object[] = []) => ({
  'Node Type': type,
  'Total Cost': cost,
  'Plan Rows': rows,
  Plans: plans,
});

describe('catalogPlanProblem', () => {
  it.each([
    ['a small join of catalog tables', [{ Plan: node('Hash Join', 136.5, 3161, [node('Seq Scan', 80, 3161)]) }], undefined],
    ['a plan at the cost limit', { Plan: node('Aggregate', CATALOG_MAX_COST, 1) }, undefined],
    ['a plan over the cost limit', { Plan: node('Aggregate', CATALOG_MAX_COST + 1, 1) }, /too costly/],
    [
      'a step planned to read too many rows',
      { Plan: node('Aggregate', 10, 1, [node('Function Scan', 10, CATALOG_MAX_ROWS + 1)]) },
      /too many rows/,
    ],
    [
      'a recursive union anywhere',
      { Plan: node('Aggregate', 5, 1, [node('CTE Scan', 4, 1, [node('Recursive Union', 3, 1)])]) },
      /WITH RECURSIVE/,
    ],
    ['no plan', {}, undefined],
  ])('%s', (_name, plan, expected) => {
    const problem = catalogPlanProblem(plan);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});
