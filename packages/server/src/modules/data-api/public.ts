/** What other modules may use of the data API beyond its service: a served build's type, and the SQL API's translation to a Cube query (reports' `sqlQuery`). */
export type { Served } from './service.js';
export { translateSql } from './cubesql/translation.js';
