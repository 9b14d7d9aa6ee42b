import type { PlinthModule } from '../module.js';
import { retentionSchedule, retentionSweep } from './sweep.js';

/** Deletes rows past their retention (issue 11): expired credentials, old telemetry, stale limits. */
export const retentionModule: PlinthModule = { name: 'retention', jobs: [retentionSweep], schedules: [retentionSchedule] };
