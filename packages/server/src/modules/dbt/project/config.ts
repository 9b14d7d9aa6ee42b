/**
 * dbt's model configs as far as cubes need them, and how dbt combines them: the SQL file's
 * `config()` over the properties file's `config:` over dbt_project.yml, where the most specific
 * folder wins; `tags` add up across all levels and `meta` merges key by key (dbt's "clobber" vs
 * "append"/"merge" behaviour).
 */
export interface ModelConfig {
  materialized?: string;
  enabled?: boolean;
  schema?: string;
  database?: string;
  alias?: string;
  tags: string[];
  meta: Record<string, unknown>;
}

export const emptyConfig = (): ModelConfig => ({ tags: [], meta: {} });

/**
 * Config names dbt accepts without a `+` in dbt_project.yml; any other key there with an object
 * value is a sub-folder (or model) name. Only some matter for cubes; the rest are recognised so
 * that they are not mistaken for folders.
 */
const KNOWN_CONFIGS = new Set([
  'materialized',
  'enabled',
  'schema',
  'database',
  'alias',
  'tags',
  'meta',
  'docs',
  'persist_docs',
  'pre-hook',
  'post-hook',
  'pre_hook',
  'post_hook',
  'quoting',
  'column_types',
  'full_refresh',
  'on_schema_change',
  'on_configuration_change',
  'grants',
  'contract',
  'access',
  'group',
  'unique_key',
  'incremental_strategy',
  'sql_header',
  'transient',
  'cluster_by',
  'partition_by',
  'sort',
  'dist',
  'bind',
  'copy_grants',
  'snowflake_warehouse',
  'labels',
  'hours_to_expiration',
  'kms_key_name',
  'partitions',
  'file_format',
  'location_root',
  'tblproperties',
  'packages',
  'indexes',
  'unlogged',
  'batch_size',
  'lookback',
  'begin',
  'event_time',
  'concurrent_batches',
  'docs',
  'static_analysis',
  'freshness',
]);

const JINJA = /\{\{|\{%/;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies one level of configs (a `config:` block, `config()` arguments, or a dbt_project.yml level). */
export function applyConfig(into: ModelConfig, raw: Record<string, unknown>, plusPrefixed: boolean): void {
  for (const [rawKey, value] of Object.entries(raw)) {
    const key = plusPrefixed && rawKey.startsWith('+') ? rawKey.slice(1) : rawKey;
    switch (key) {
      case 'materialized':
      case 'schema':
      case 'database':
      case 'alias':
        // `+schema: "{{ env_var('S') }}"` is computed when dbt runs; the text is not the schema.
        if (typeof value === 'string' && value !== '' && !JINJA.test(value)) into[key] = value;
        break;
      case 'enabled':
        if (typeof value === 'boolean') into.enabled = value;
        else if (value === 'true' || value === 'false') into.enabled = value === 'true';
        break;
      case 'tags':
        for (const tag of tagList(value)) if (!into.tags.includes(tag)) into.tags.push(tag);
        break;
      case 'meta':
        if (isObject(value)) into.meta = { ...into.meta, ...value };
        break;
      default:
        break;
    }
  }
}

export function tagList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === 'string');
  return [];
}

/**
 * The configs dbt_project.yml's `models:` gives a model at `fqn` ([project, ...folders, model]):
 * the top level, then each level of the path that the file declares.
 */
export function projectConfig(models: unknown, fqn: readonly string[]): ModelConfig {
  const config = emptyConfig();
  let level: unknown = models;
  for (let depth = 0; isObject(level); depth++) {
    applyConfig(config, configsOf(level), true);
    if (depth === fqn.length) break;
    const next: unknown = level[fqn[depth]!];
    level = isObject(next) ? next : undefined;
  }
  return config;
}

function configsOf(level: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(level)) {
    if (key.startsWith('+')) out[key] = value;
    // Without `+`, a known config name is a config unless it holds a folder's block of settings.
    else if (KNOWN_CONFIGS.has(key) && !(isObject(value) && key !== 'meta' && key !== 'docs')) out[`+${key}`] = value;
  }
  return out;
}
