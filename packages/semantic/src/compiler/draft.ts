import type { RollingWindow } from '../model.js';
import type { Location } from './diagnostics.js';
import type { Obj } from './fields.js';
import type { RawTemplate } from './template.js';

/** A cube as read from YAML, before references are resolved against the whole model. */
export interface DraftMember {
  readonly kind: 'measure' | 'dimension' | 'segment';
  readonly name: string;
  readonly type: string;
  readonly sql?: RawTemplate;
  readonly filters: readonly RawTemplate[];
  readonly caseWhen?: {
    when: Array<{ sql: RawTemplate; label: string | RawTemplate }>;
    else?: string | RawTemplate;
  };
  readonly primaryKey: boolean;
  readonly title?: string;
  readonly description?: string;
  readonly public: boolean;
  readonly meta?: unknown;
  readonly format?: string;
  /** As written: `member`, `CUBE.member` or `other_cube.member`. */
  readonly drillMembers?: readonly string[];
  readonly rollingWindow?: RollingWindow;
  readonly latitude?: RawTemplate;
  readonly longitude?: RawTemplate;
  readonly subQuery?: boolean;
  readonly propagateFiltersToSubQuery?: boolean;
  readonly at?: Location;
}

export interface DraftJoin {
  readonly to: string;
  readonly relationship: 'many_to_one' | 'one_to_many' | 'one_to_one';
  readonly sql?: RawTemplate;
  readonly at?: Location;
}

export interface DraftCube {
  readonly name: string;
  readonly fileName: string;
  readonly at?: Location;
  readonly title?: string;
  readonly description?: string;
  readonly public: boolean;
  readonly meta?: unknown;
  readonly sqlTable?: string;
  readonly sql?: RawTemplate;
  readonly members: DraftMember[];
  readonly joins: DraftJoin[];
  readonly accessPolicy?: unknown;
  /** Read once the cube's member names are known. */
  readonly hierarchies?: unknown;
  readonly preAggregations: Array<{ name: string; value: Obj; at?: Location }>;
  /** `refresh_key` as written; read once the model's names are known. */
  readonly refreshKey?: unknown;
  locate(path: ReadonlyArray<string | number>): Location | undefined;
}
