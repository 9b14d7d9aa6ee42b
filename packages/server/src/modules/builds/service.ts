import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { ServiceContext } from '../module.js';
import type { BuildQueue, CompileSummary, QueueBuildInput } from './public.js';
import { queueBuild } from './queue.js';

const pending = (): never => {
  throw new Error('builds: not built yet (issue 13)');
};

/** Builds of data-model commits: queued here, compiled by the `data-model.build` job kind. */
export class BuildService implements BuildQueue {
  constructor(readonly ctx: ServiceContext) {}

  queueBuild(input: QueueBuildInput, db?: Kysely<Database>): Promise<{ buildId: number }> {
    return queueBuild(db ?? this.ctx.db, input);
  }

  compileFiles(_files: ReadonlyMap<string, string>): Promise<CompileSummary> {
    return pending();
  }
}
