import type { Principal } from '../../http/principal.js';
import type { ModelBranchRow, TreeEntries } from '../../store/schema.js';
import type { ServiceContext } from '../module.js';
import type { CommitTreeInput, CommitTreeResult, DataModelStore } from './public.js';

const pending = (): never => {
  throw new Error('data-model store: not built yet (issue 13)');
};

/** Skeleton (issue 13): the data-model helper replaces it with the real store. */
export class DataModelService implements DataModelStore {
  constructor(readonly ctx: ServiceContext) {}
  target(_principal: Principal, _deploymentId: number, _branch?: string | null): Promise<ModelBranchRow> {
    return pending();
  }
  branch(_accountId: number, _deploymentId: number, _name: string): Promise<ModelBranchRow> {
    return pending();
  }
  treeAt(_accountId: number, _commitId: number): Promise<TreeEntries> {
    return pending();
  }
  filesAt(_accountId: number, _commitId: number): Promise<Map<string, string>> {
    return pending();
  }
  storeBlobs(_accountId: number, _contents: readonly string[]): Promise<string[]> {
    return pending();
  }
  knownBlobs(_accountId: number, _hashes: readonly string[]): Promise<Set<string>> {
    return pending();
  }
  commitTree(_principal: Principal | null, _branch: ModelBranchRow, _input: CommitTreeInput): Promise<CommitTreeResult> {
    return pending();
  }
}
