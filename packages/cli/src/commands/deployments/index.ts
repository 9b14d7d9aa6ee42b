import type { Group } from '../../core/define.js';
import { build } from './build.js';
import { buildCancel } from './build-cancel.js';
import { buildGet } from './build-get.js';
import { buildStatus } from './build-status.js';
import { builds } from './builds.js';
import { create } from './create.js';
import { remove } from './delete.js';
import { get } from './get.js';
import { list } from './list.js';
import { token } from './token.js';
import { settings } from './settings.js';
import { advanceStep, resetStep } from './steps.js';
import { update } from './update.js';
import { versions } from './versions.js';

export const group: Group = {
  name: 'deployments',
  summary: 'Deployments',
  verbs: [
    list,
    get,
    create,
    update,
    remove,
    settings,
    versions,
    advanceStep,
    resetStep,
    buildStatus,
    build,
    builds,
    buildGet,
    buildCancel,
    token,
  ],
};
