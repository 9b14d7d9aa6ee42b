import type { DbtSyncStageRecord } from '../../store/schema.js';

/** The stages of a sync, in order; `build` is the generated branch's build, read from the builds module. */
export const STAGES = ['clone', 'parse', 'generate', 'write', 'build'] as const;
export type StageName = (typeof STAGES)[number];
export type StageStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped' | 'cancelled';
export type Progress = { done: number; total: number } | null;

export function initialStages(): DbtSyncStageRecord[] {
  return STAGES.map((name) => ({ name, status: 'pending', startedAt: null, finishedAt: null, message: null, progress: null }));
}

/** A copy of `stages` with one stage changed. */
export function withStage(stages: DbtSyncStageRecord[], name: StageName, change: Partial<DbtSyncStageRecord>): DbtSyncStageRecord[] {
  return stages.map((stage) => (stage.name === name ? { ...stage, ...change } : stage));
}

/**
 * The stages once the sync has ended early: the one in progress (or, with none, the first pending
 * one) gets `status` and the message, the pending ones after it are skipped.
 */
export function endStages(stages: DbtSyncStageRecord[], status: 'failed' | 'cancelled', message: string, at: string): DbtSyncStageRecord[] {
  const current = stages.findIndex((s) => s.status === 'running');
  const index = current >= 0 ? current : stages.findIndex((s) => s.status === 'pending');
  return stages.map((stage, i) => {
    if (i === index) return { ...stage, status, message, startedAt: stage.startedAt ?? at, finishedAt: at };
    if (stage.status === 'pending' || stage.status === 'running') return { ...stage, status: 'skipped' };
    return stage;
  });
}
