import type { Folder, Hierarchy } from '../model.js';
import type { Diagnostics, Location } from './diagnostics.js';
import { isObj, NAME, namedList, str } from './fields.js';

const HIERARCHY_KEYS = new Set(['name', 'title', 'levels', 'public']);

/** The owner a hierarchy or folder belongs to, and what its names may point at. */
export interface GroupingOwner {
  readonly name: string;
  readonly kind: 'cube' | 'view';
  readonly fileName: string;
  /** Every member name of the owner, in model order (`includes: "*"` of a folder takes them all). */
  readonly memberNames: readonly string[];
  isDimension(name: string): boolean;
}

/**
 * A level as Cube's YAML writes it: `city`, `CUBE.city`, `{CUBE.city}`, `{city}` or `owner.city`.
 * Returns the member name, or undefined when the level names another cube.
 */
function levelName(raw: string, owner: string): string | undefined {
  const bare = raw.trim().replace(/^\$?\{\s*(.*?)\s*\}$/, '$1');
  const parts = bare.split('.').map((p) => p.trim());
  if (parts.length === 1) return parts[0];
  if (parts.length === 2 && (parts[0] === 'CUBE' || parts[0] === owner)) return parts[1];
  return undefined;
}

/** Reads the `hierarchies` of a cube: each level must be one of its dimensions. */
export function readHierarchies(raw: unknown, owner: GroupingOwner, at: Location | undefined, diagnostics: Diagnostics): Hierarchy[] {
  if (raw === undefined || raw === null) return [];
  const items = namedList(raw);
  if (items.length === 0 && !(Array.isArray(raw) || isObj(raw))) {
    diagnostics.error(owner.fileName, `\`hierarchies\` of ${owner.name} must be a list of {name, levels}`, at);
    return [];
  }
  const hierarchies: Hierarchy[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (!item.name || !NAME.test(item.name)) {
      diagnostics.error(owner.fileName, `A hierarchy of ${owner.name} needs a \`name\` of letters, digits and underscores`, at);
      continue;
    }
    if (seen.has(item.name)) {
      diagnostics.error(owner.fileName, `Duplicate hierarchy name '${item.name}' in ${owner.kind} '${owner.name}'`, at);
      continue;
    }
    seen.add(item.name);
    const unknown = Object.keys(item.value).find((key) => !HIERARCHY_KEYS.has(key));
    if (unknown !== undefined) {
      diagnostics.error(
        owner.fileName,
        `Hierarchy ${owner.name}.${item.name} has unknown key \`${unknown}\` (expected name, title, levels, public)`,
        at,
      );
    }
    const shown = item.value['public'];
    if (shown !== undefined && typeof shown !== 'boolean') {
      // A quoted "false" would otherwise read as true.
      diagnostics.error(
        owner.fileName,
        `Hierarchy ${owner.name}.${item.name}: public must be true or false, not ${JSON.stringify(shown)}`,
        at,
      );
    }
    const rawLevels = item.value['levels'];
    if (!Array.isArray(rawLevels) || rawLevels.length === 0 || !rawLevels.every((l) => typeof l === 'string')) {
      diagnostics.error(owner.fileName, `Hierarchy ${owner.name}.${item.name} needs \`levels\`, a list of dimension names`, at);
      continue;
    }
    const levels: string[] = [];
    for (const level of rawLevels as string[]) {
      const name = levelName(level, owner.name);
      if (name === undefined || !owner.memberNames.includes(name)) {
        diagnostics.error(
          owner.fileName,
          `Hierarchy ${owner.name}.${item.name} names level ${level}, which is not a dimension of ${owner.name}`,
          at,
        );
      } else if (!owner.isDimension(name)) {
        diagnostics.error(
          owner.fileName,
          `Only dimensions can be part of a hierarchy: remove ${name} from hierarchy ${owner.name}.${item.name}`,
          at,
        );
      } else levels.push(name);
    }
    const title = str(item.value['title']);
    hierarchies.push({
      name: item.name,
      ...(title !== undefined ? { title } : {}),
      levels,
      public: item.value['public'] !== false,
    });
  }
  return hierarchies;
}

/** Reads `folders`: members by name (no paths), `"*"` for all, and nested `{name, includes}` folders. */
export function readFolders(raw: unknown, owner: GroupingOwner, at: Location | undefined, diagnostics: Diagnostics): Folder[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    diagnostics.error(owner.fileName, `\`folders\` of ${owner.name} must be a list of {name, includes}`, at);
    return [];
  }
  const readFolder = (value: unknown): Folder | undefined => {
    const name = isObj(value) ? str(value['name']) : undefined;
    if (!isObj(value) || !name) {
      diagnostics.error(owner.fileName, `Each folder of ${owner.name} needs a \`name\` and \`includes\``, at);
      return undefined;
    }
    const unknown = Object.keys(value).find((key) => key !== 'name' && key !== 'includes');
    if (unknown !== undefined) {
      diagnostics.error(owner.fileName, `Folder '${name}' of ${owner.name} has unknown key \`${unknown}\` (expected name, includes)`, at);
    }
    const includes = value['includes'];
    const items: unknown[] = includes === '*' ? [...owner.memberNames] : Array.isArray(includes) ? includes : [];
    if (includes !== '*' && !Array.isArray(includes)) {
      diagnostics.error(owner.fileName, `Folder '${name}' of ${owner.name} needs \`includes\`: a list of member names or "*"`, at);
    }
    const members: Array<string | Folder> = [];
    for (const item of items) {
      if (isObj(item)) {
        const nested = readFolder(item);
        if (nested) members.push(nested);
        continue;
      }
      const member = str(item) ?? '';
      if (member.includes('.')) {
        diagnostics.error(owner.fileName, `Paths aren't allowed in folders, but folder '${name}' of ${owner.name} has '${member}'`, at);
      } else if (!owner.memberNames.includes(member)) {
        diagnostics.error(owner.fileName, `Member '${member}' included in folder '${name}' of ${owner.name} not found`, at);
      } else members.push(member);
    }
    return { name, members };
  };
  return (raw as unknown[]).flatMap((value) => {
    const folder = readFolder(value);
    return folder ? [folder] : [];
  });
}
