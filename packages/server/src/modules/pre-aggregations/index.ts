import type { PlinthModule } from '../module.js';
import { refreshJob, refreshSchedule } from './jobs.js';
import { PreAggregationOperations } from './operations.js';
import { preAggregationRoutes } from './routes.js';
import { preAggregationSchemas } from './schemas.js';
import { PreAggregationService } from './service.js';
import './tables.js';

declare module '../module.js' {
  interface Services {
    preAggregations: PreAggregationService;
    preAggregationOperations: PreAggregationOperations;
  }
}

/**
 * Pre-aggregations: rollups built per build into Parquet under the data directory (or, `external:
 * false`, into tables of the source warehouse), refreshed by partition, read by the data API.
 */
export const preAggregationsModule: PlinthModule = {
  name: 'pre-aggregations',
  tags: { 'Pre-aggregations': "A deployment's pre-aggregations (rollups): their partitions, building them, their jobs and rows." },
  services: {
    preAggregations: (ctx) => new PreAggregationService(ctx),
    preAggregationOperations: (ctx) => new PreAggregationOperations(ctx, ctx.services.preAggregations),
  },
  tables: ['rollup_partition', 'rollup_retired_file', 'rollup_retired_table', 'rollup_build', 'rollup_schedule'],
  schemas: preAggregationSchemas,
  routes: preAggregationRoutes,
  jobs: [refreshJob],
  schedules: [refreshSchedule],
};
