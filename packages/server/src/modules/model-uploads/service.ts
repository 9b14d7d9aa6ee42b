import type { ServiceContext } from '../module.js';

/** Skeleton (issue 13): the uploads helper replaces it with deploy's upload sessions. */
export class ModelUploadService {
  constructor(readonly ctx: ServiceContext) {}
}
