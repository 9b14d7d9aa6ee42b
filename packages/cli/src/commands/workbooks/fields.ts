import { bodyOf, readJsonArg } from '../../core/body.js';
import { defineOptions, type OptionsOf } from '../../core/define.js';
import type { IO } from '../../core/io.js';
import { DATA_OPTION } from '../../core/rest.js';
import { folderOf } from './paths.js';

/** The flags create and update share; `-d` carries the whole body (meta, calculatedFields, …) with flags on top. */
export const workbookOptions = defineOptions([
  { flags: '--name <name>', description: 'Workbook name' },
  { flags: '--folder <id>', description: 'Folder to put it in (root: the root of the workspace)' },
  { flags: '--calculated-fields <json>', description: 'Calculated fields: JSON (name → {sql|expression, type, title}), @file or -' },
  DATA_OPTION,
]);

export async function workbookBody(io: IO, opts: OptionsOf<typeof workbookOptions>) {
  const calculatedFields =
    opts.calculatedFields === undefined ? undefined : await readJsonArg(io, opts.calculatedFields, '--calculated-fields');
  return bodyOf(io, opts.data, { name: opts.name, folderId: folderOf(opts.folder), calculatedFields });
}
