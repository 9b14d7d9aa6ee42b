import type { Group } from '../../core/define.js';
import { branches } from './branches.js';
import { commit } from './commit.js';
import { createBranch } from './create-branch.js';
import { deleteBranch } from './delete-branch.js';
import { remove } from './delete.js';
import { devModeStatus } from './dev-mode-status.js';
import { devMode } from './dev-mode.js';
import { diff } from './diff.js';
import { disableBranch } from './disable-branch.js';
import { enableBranch } from './enable-branch.js';
import { exitDevMode } from './exit-dev-mode.js';
import { fileHashes } from './file-hashes.js';
import { get } from './get.js';
import { list } from './list.js';
import { log } from './log.js';
import { mergeToDefault } from './merge-to-default.js';
import { merge } from './merge.js';
import { pull } from './pull.js';
import { put } from './put.js';
import { rename } from './rename.js';

export const group: Group = {
  name: 'data-model',
  summary: 'Data model files, branches and dev mode',
  verbs: [
    list,
    get,
    put,
    remove,
    rename,
    fileHashes,
    branches,
    createBranch,
    deleteBranch,
    enableBranch,
    disableBranch,
    devMode,
    exitDevMode,
    devModeStatus,
    commit,
    pull,
    merge,
    mergeToDefault,
    log,
    diff,
  ],
};
