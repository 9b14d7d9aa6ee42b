import type { DataModel } from '../model.js';
import type { RollupDefinition } from './types.js';

/** Every pre-aggregation of the model, with the columns its rollup rows hold. */
export function rollupDefinitions(model: DataModel): RollupDefinition[] {
  void model;
  throw new Error('not yet');
}
