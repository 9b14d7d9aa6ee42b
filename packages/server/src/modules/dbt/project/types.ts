/** The dbt project as read from a checkout: only what dbt itself declares, never rendered Jinja. */
export interface DbtProject {
  name: string;
  source: 'manifest' | 'files';
  models: DbtModel[];
}

export interface DbtModel {
  name: string;
  uniqueId: string;
  /** null when the project does not say (files without `+database`); the warehouse's default applies. */
  database: string | null;
  schema: string | null;
  alias: string;
  materialized: string;
  enabled: boolean;
  description: string | null;
  tags: string[];
  meta: Record<string, unknown>;
  columns: DbtColumn[];
  /** The model's file, relative to the project folder (dbt's original_file_path). */
  path: string;
}

export interface DbtColumn {
  name: string;
  dataType: string | null;
  description: string | null;
  tags: string[];
  meta: Record<string, unknown>;
  tests: DbtColumnTest[];
}

export type DbtColumnTest =
  | { kind: 'unique' }
  | { kind: 'not_null' }
  | { kind: 'relationships'; to: string /* model name */; field: string }
  | { kind: 'other'; name: string };

export interface GeneratedModel {
  /** 'model/dbt/<cube>.yml' → YAML. */
  files: Map<string, string>;
  cubes: string[];
  skipped: Array<{ model: string; reason: 'ephemeral' | 'disabled' }>;
  /** What was generated differently from what the project asks (a second join to one cube, say). */
  warnings: string[];
}

export const GENERATED_DIRECTORY = 'model/dbt';

/** A project that cannot be read or turned into cubes; the message is for the user and names the file. */
export class DbtProjectError extends Error {
  readonly file: string | null;

  constructor(message: string, file: string | null = null) {
    super(message);
    this.name = 'DbtProjectError';
    this.file = file;
  }
}
