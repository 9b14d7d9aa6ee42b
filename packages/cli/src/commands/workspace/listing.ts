import { positiveInt } from '../../core/body.js';
import { UsageError } from '../../core/errors.js';
import { builtVerb, defineOptions, type OptionsOf, type Verb } from '../../core/define.js';
import type { Column } from '../../core/output.js';
import { id, pageOptions, pageQuery } from '../../core/rest.js';

export const TYPES = ['FOLDER', 'WORKBOOK', 'REPORT'] as const;

export const workspaceColumns: Column[] = [
  ['Type', 'type'],
  ['ID', 'id'],
  ['Name', 'name'],
  ['Folder', (i) => i.folderId ?? 'root'],
  ['Updated', 'updatedAt'],
];

const OPTIONS = defineOptions([
  { flags: '--folder <id>', description: 'The items directly in this folder (default: the top of the workspace)' },
  { flags: '--type <type>', description: 'Only items of this kind: FOLDER, WORKBOOK or REPORT (repeatable)', repeatable: true },
  { flags: '--search <text>', description: 'Only items whose name contains this, ignoring case (every folder unless --folder)' },
  {
    flags: '--order-by <field>',
    description: 'Sort by name (default), created_at, updated_at or viewer_last_viewed_at',
    choices: ['name', 'created_at', 'updated_at', 'viewer_last_viewed_at'],
  },
  { flags: '--direction <dir>', description: 'ASC (default) or DESC', choices: ['ASC', 'DESC'] },
  ...pageOptions(),
]);

/** An item kind as the server names it; case is forgiven, anything else told before a request. */
export function typeOf(value: string): string {
  const kind = value.toUpperCase();
  if (!(TYPES as readonly string[]).includes(kind)) throw new UsageError(`type must be one of ${TYPES.join(', ')}, got "${value}"`);
  return kind;
}

/** `list` (my workspace) and `shared` differ only in their path and wording. */
export function workspaceListVerb(spec: { name: string; summary: string; segment: 'workspace' | 'shared-workspace' }): Verb {
  return builtVerb<OptionsOf<typeof OPTIONS>>({
    name: spec.name,
    aliases: spec.name === 'list' ? ['ls'] : undefined,
    summary: spec.summary,
    args: ['<deployment_id>'],
    options: OPTIONS,
    examples: [
      `plinth workspace ${spec.name} 3`,
      `plinth workspace ${spec.name} 3 --folder 12 --type REPORT --order-by updated_at --direction DESC`,
    ],
    async run(f, [deploymentId], opts) {
      const path = `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/${spec.segment}`;
      const query = {
        ...pageQuery(opts),
        folderId: opts.folder === undefined ? undefined : positiveInt(opts.folder, '--folder'),
        types: opts.type?.map(typeOf),
        search: opts.search,
        orderByField: opts.orderBy,
        orderByDirection: opts.direction,
      };
      const client = await f.client();
      f.output.list(await client.request('GET', path, { query }), workspaceColumns);
    },
  });
}
