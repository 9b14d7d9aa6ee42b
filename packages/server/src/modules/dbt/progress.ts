import type { JobContext } from '../../jobs/kind.js';
import type { DbtSyncRow, DbtSyncStageRecord } from '../../store/schema.js';
import type { DbtRepo, SyncUpdate } from './repo.js';
import { endStages, withStage, type Progress, type StageName } from './stages.js';

/** Thrown when the sync was cancelled between two stages: the handler records CANCELLED. */
export class SyncCancelled extends Error {
  constructor() {
    super('the sync was cancelled');
  }
}

/**
 * Records a running sync's stages on its row as they start and end, so its status shows live
 * progress. Every write is a compare-and-swap on `running` and no cancel asked for, and each
 * stage starts with a heartbeat: a cancel (API or job) stops the sync at the next stage.
 */
export class StageRecorder {
  stages: DbtSyncStageRecord[];

  constructor(
    private readonly repo: DbtRepo,
    private readonly row: DbtSyncRow,
    private readonly context: JobContext,
  ) {
    this.stages = row.stages;
  }

  private now(): string {
    return new Date(this.context.now()).toISOString();
  }

  async start(name: StageName, message: string | null = null): Promise<void> {
    await this.context.heartbeat();
    await this.save(name, { status: 'running', startedAt: this.now(), message }, { stage: name });
  }

  async progress(name: StageName, progress: Progress, message: string | null = null): Promise<void> {
    await this.save(name, { progress, message });
  }

  async done(name: StageName, message: string, progress: Progress, extra: SyncUpdate = {}): Promise<void> {
    await this.save(name, { status: 'done', finishedAt: this.now(), message, progress }, extra);
  }

  /** The stages with `name` done, for a write that records it in its own transaction. */
  doneStages(name: StageName, message: string, progress: Progress): DbtSyncStageRecord[] {
    return withStage(this.stages, name, { status: 'done', finishedAt: this.now(), message, progress });
  }

  private async save(name: StageName, change: Partial<DbtSyncStageRecord>, extra: SyncUpdate = {}): Promise<void> {
    const stages = withStage(this.stages, name, change);
    const saved = await this.repo.update(this.row.id, { ...extra, stages }, ['running'], true);
    if (!saved) throw new SyncCancelled();
    this.stages = saved.stages;
  }

  /** Ends the sync FAILED or CANCELLED at the stage in progress; the later stages are skipped. */
  async end(status: 'failed' | 'cancelled', message: string): Promise<void> {
    const at = new Date(this.context.now());
    const stages = endStages(this.stages, status, message, at.toISOString());
    await this.repo.update(
      this.row.id,
      {
        state: status,
        stage: stages.find((s) => s.status === status)?.name ?? null,
        error: status === 'failed' ? message : null,
        stages,
        finished_at: at,
      },
      ['running'],
    );
  }
}
