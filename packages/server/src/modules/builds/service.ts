import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { ServiceContext } from '../module.js';
import type { BuildQueue, CompileSummary, QueueBuildInput } from './public.js';

const pending = (): never => {
  throw new Error('builds: not built yet (issue 13)');
};

/** Skeleton (issue 13): the builds helper replaces it. */
export class BuildService implements BuildQueue {
  constructor(readonly ctx: ServiceContext) {}
  queueBuild(_input: QueueBuildInput, _db?: Kysely<Database>): Promise<{ buildId: number }> {
    return pending();
  }
  compileFiles(_files: ReadonlyMap<string, string>): Promise<CompileSummary> {
    return pending();
  }
}
