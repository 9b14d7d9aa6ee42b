export { rollupDefinitions } from './definitions.js';
export { rollupBuildPlan, rollupRangePlan, refreshKeyPlan } from './build.js';
export { rollupPartitions } from './partitions.js';
export type * from './types.js';
export { PRE_AGGREGATIONS_SCHEMA } from './types.js';
