/** What ajv reports of one failed keyword (Fastify passes ajv's errors on as they are). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: object;
  message?: string | undefined;
}

/**
 * Turns ajv's errors into one sentence a person can act on, naming the field the way they sent
 * it: `role must be one of admin, member`, `password must be at least 12 characters`. Every
 * schema validation failure of every route is worded here, and nowhere else.
 */
export function describeValidation(errors: readonly ValidationIssue[], context: string | undefined): string {
  const first = errors[0];
  if (!first) return 'The request is not valid';
  // A union reports each branch that failed, then itself: word them together as the union.
  const union = errors.find((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && e.instancePath === first.instancePath);
  if (!union) return sentence(first, context);
  const problem = unionProblem(errors, first.instancePath);
  if (problem) return `${fieldName(context, first.instancePath)} ${problem}`;
  // `X or null` (a field Cube clients may send as null): a value that is not null failed X, so X's complaint is the one to act on.
  const rest = errors.filter((e) => e !== union && !(e.instancePath === union.instancePath && isNullType(e)));
  if (rest.length > 0 && rest.length === errors.length - 2) return describeValidation(rest, context);
  return `${fieldName(context, first.instancePath)} does not match any of the forms it may take`;
}

function isNullType(error: ValidationIssue): boolean {
  return error.keyword === 'type' && (error.params as { type?: unknown }).type === 'null';
}

function sentence(error: ValidationIssue, context: string | undefined): string {
  const field = fieldName(context, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${field} is missing the required property "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `${field} has an unknown property "${String(params.additionalProperty)}"`;
    case 'enum':
      return `${field} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `${field} must be ${String(params.allowedValue)}`;
    case 'type':
      return `${field} must be ${typeList(String(params.type).split(','))}`;
    case 'minLength':
      return params.limit === 1 ? `${field} must not be empty` : `${field} must be at least ${plural(params.limit, 'character')}`;
    case 'maxLength':
      return `${field} must be at most ${plural(params.limit, 'character')}`;
    case 'minItems':
      return `${field} must have at least ${plural(params.limit, 'item')}`;
    case 'maxItems':
      return `${field} must have at most ${plural(params.limit, 'item')}`;
    case 'minProperties':
      return params.limit === 1
        ? `${field} must not be empty: send at least one of its properties`
        : `${field} must have at least ${plural(params.limit, 'property', 'properties')}`;
    case 'minimum':
      return `${field} must be at least ${String(params.limit)}`;
    case 'maximum':
      return `${field} must be at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `${field} must be greater than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `${field} must be less than ${String(params.limit)}`;
    case 'format':
      return `${field} must be ${formatName(String(params.format))}`;
    case 'pattern':
      return `${field} must match the pattern ${String(params.pattern)}`;
    case 'uniqueItems':
      return `${field} must not repeat an item (items ${String(params.j)} and ${String(params.i)} are the same)`;
    case 'multipleOf':
      return `${field} must be a multiple of ${String(params.multipleOf)}`;
    default:
      return `${field} ${error.message ?? 'is not valid'}`;
  }
}

/** `one of admin, member` for constants; `a string or null` for types; else what each allows. */
function unionProblem(errors: readonly ValidationIssue[], path: string): string | undefined {
  const branches = errors.filter((e) => e.instancePath === path && e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const constants = branches.filter((e) => e.keyword === 'const').map((e) => String((e.params as { allowedValue: unknown }).allowedValue));
  const types = branches.filter((e) => e.keyword === 'type').flatMap((e) => String((e.params as { type: string }).type).split(','));
  if (constants.length > 0 && constants.length === branches.length) return `must be one of ${constants.join(', ')}`;
  if (branches.length > 0 && types.length + constants.length === branches.length) {
    return `must be ${[...constants, typeList(types)].filter(Boolean).join(' or ')}`;
  }
  return undefined;
}

const article: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typeList(types: string[]): string {
  const words = [...new Set(types)].map((t) => article[t] ?? t);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

const formats: Record<string, string> = {
  email: 'an e-mail address',
  url: 'a URL',
  uri: 'a URI',
  'date-time': 'a date and time (ISO 8601)',
  date: 'a date (YYYY-MM-DD)',
  uuid: 'a UUID',
  hostname: 'a host name',
};

function formatName(format: string): string {
  return formats[format] ?? `in ${format} format`;
}

function plural(limit: unknown, one: string, many = `${one}s`): string {
  return `${String(limit)} ${limit === 1 ? one : many}`;
}

const parts: Record<string, string> = { querystring: 'query parameter', params: 'path parameter', headers: 'header' };

/**
 * `users[0].email` for a body field, `query parameter first` for the others; the body itself is
 * `body`, and a bulk entry checked alone is `entry`. ajv writes paths as JSON Pointers (RFC 6901), escaping `/` and `~`.
 */
export function fieldName(context: string | undefined, instancePath: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const dotted = segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '');
  const part = parts[context ?? 'body'];
  // Any other context (a bulk entry, say) names its root by itself.
  if (!part) return dotted || (context ?? 'body');
  return dotted ? `${part} ${dotted}` : `the ${part}s`;
}
