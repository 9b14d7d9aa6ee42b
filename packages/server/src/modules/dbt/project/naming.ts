const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A dbt name → a cube or member name our compiler accepts (letters, digits, underscores). */
export function memberName(name: string): string {
  const cleaned = name.trim().replace(/[^A-Za-z0-9_]+/g, '_');
  if (cleaned === '') return '_';
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
}

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** An identifier as SQL must write it: plain when it is a plain name (so the warehouse's case rules apply), else quoted. */
export function sqlIdentifier(name: string): string {
  return isIdentifier(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** The relation of a model as far as it is known: database.schema.alias, schema.alias or alias. */
export function relationOf(model: { database: string | null; schema: string | null; alias: string }): string {
  const parts =
    model.schema === null
      ? [model.alias]
      : model.database === null
        ? [model.schema, model.alias]
        : [model.database, model.schema, model.alias];
  return parts.map(sqlIdentifier).join('.');
}

/**
 * Model YAML is rendered as a Jinja template before it is parsed, so text taken from the dbt
 * project (a description mentioning `{{ doc('x') }}`, say) must not be read as Jinja: each
 * delimiter is written as a Jinja expression that prints it.
 */
export function escapeJinja(yaml: string): string {
  return yaml.replace(/\{[{%#]/g, (delimiter) => `{{ '${delimiter}' }}`);
}
