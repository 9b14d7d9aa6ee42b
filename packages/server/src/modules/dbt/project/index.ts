/**
 * The dbt project library: reads a dbt project from a checkout and turns its models into cubes.
 * Pure: no store, no HTTP; the dbt sync job (modules/dbt) drives it.
 */
export { readDbtProject } from './read.js';
export { generateCubes } from './generate.js';
export {
  DbtProjectError,
  GENERATED_DIRECTORY,
  type DbtColumn,
  type DbtColumnTest,
  type DbtModel,
  type DbtProject,
  type GeneratedModel,
} from './types.js';
export { COLUMN_MEASURE_TYPES } from './members.js';
