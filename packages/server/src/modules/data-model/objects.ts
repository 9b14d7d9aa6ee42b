import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { badRequest } from '../../http/errors.js';
import type { Database, TreeEntries } from '../../store/schema.js';
import { checkContent, checkModel } from './limits.js';

/** SHA-256 of a file's UTF-8 bytes, lower-case hex: a blob's address. */
export const blobHash = (content: string): string => createHash('sha256').update(content, 'utf8').digest('hex');

/** A tree as canonical JSON: keys sorted by code unit, no spaces, so equal trees have equal text. */
export function canonicalTree(entries: TreeEntries): string {
  const sorted: TreeEntries = {};
  for (const path of Object.keys(entries).sort()) sorted[path] = entries[path]!;
  return JSON.stringify(sorted);
}

export const treeHash = (entries: TreeEntries): string => createHash('sha256').update(canonicalTree(entries), 'utf8').digest('hex');

export const EMPTY_TREE_HASH = treeHash({});

const TREE_CACHE_SIZE = 256;

/**
 * Blobs and trees of the metadata store. Both are immutable and addressed by their content, so
 * writing one is an insert that does nothing when it exists, and a tree once read can be kept in
 * memory by every process without ever going stale.
 */
export class ObjectStore {
  private readonly trees = new Map<string, TreeEntries>();

  constructor(private readonly db: Kysely<Database>) {}

  /** Stores contents (each checked against the file limits first) and answers their hashes, in order. */
  async storeBlobs(accountId: number, contents: readonly string[], paths?: readonly string[]): Promise<string[]> {
    const rows = contents.map((content, i) => ({
      account_id: accountId,
      hash: blobHash(content),
      size: checkContent(paths?.[i] ?? `#${i + 1}`, content),
      content,
    }));
    const unique = [...new Map(rows.map((row) => [row.hash, row])).values()];
    for (let i = 0; i < unique.length; i += 100) {
      await this.db
        .insertInto('model_blob')
        .values(unique.slice(i, i + 100))
        .onConflict((oc) => oc.columns(['account_id', 'hash']).doNothing())
        .execute();
    }
    return rows.map((row) => row.hash);
  }

  /** Sizes of the account's blobs among `hashes`; a hash it does not hold is absent from the map. */
  async blobSizes(accountId: number, hashes: readonly string[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    const wanted = [...new Set(hashes)];
    for (let i = 0; i < wanted.length; i += 1000) {
      const rows = await this.db
        .selectFrom('model_blob')
        .select(['hash', 'size'])
        .where('account_id', '=', accountId)
        .where('hash', 'in', wanted.slice(i, i + 1000))
        .execute();
      for (const row of rows) sizes.set(row.hash, row.size);
    }
    return sizes;
  }

  async blobContents(accountId: number, hashes: readonly string[]): Promise<Map<string, string>> {
    const contents = new Map<string, string>();
    const wanted = [...new Set(hashes)];
    for (let i = 0; i < wanted.length; i += 500) {
      const rows = await this.db
        .selectFrom('model_blob')
        .select(['hash', 'content'])
        .where('account_id', '=', accountId)
        .where('hash', 'in', wanted.slice(i, i + 500))
        .execute();
      for (const row of rows) contents.set(row.hash, row.content);
    }
    return contents;
  }

  /**
   * Stores a tree and answers its hash. Every entry must name a blob the account holds (400), and
   * the whole tree must fit the model limits (422): nothing is written otherwise.
   */
  async putTree(accountId: number, entries: TreeEntries): Promise<string> {
    const hash = treeHash(entries);
    if (this.trees.has(`${accountId}:${hash}`)) return hash;
    const paths = Object.keys(entries);
    checkModel(paths.length, 0);
    const sizes = await this.blobSizes(accountId, Object.values(entries));
    const missing = paths.filter((path) => !sizes.has(entries[path]!));
    if (missing.length > 0) {
      throw badRequest(
        `No file content with the hash given for ${missing
          .slice(0, 10)
          .map((p) => JSON.stringify(p))
          .join(', ')}`,
      );
    }
    const total = paths.reduce((sum, path) => sum + sizes.get(entries[path]!)!, 0);
    checkModel(paths.length, total);
    await this.db
      .insertInto('model_tree')
      .values({ account_id: accountId, hash, entries: canonicalTree(entries), file_count: paths.length, total_size: total })
      .onConflict((oc) => oc.columns(['account_id', 'hash']).doNothing())
      .execute();
    // Not remembered here: the insert may yet roll back with its transaction; a read remembers it.
    return hash;
  }

  async readTree(accountId: number, hash: string): Promise<TreeEntries> {
    const cached = this.trees.get(`${accountId}:${hash}`);
    if (cached) return cached;
    const row = await this.db
      .selectFrom('model_tree')
      .select('entries')
      .where('account_id', '=', accountId)
      .where('hash', '=', hash)
      .executeTakeFirstOrThrow();
    const entries = typeof row.entries === 'string' ? (JSON.parse(row.entries) as TreeEntries) : row.entries;
    this.remember(accountId, hash, entries);
    return entries;
  }

  private remember(accountId: number, hash: string, entries: TreeEntries): void {
    if (this.trees.size >= TREE_CACHE_SIZE) this.trees.delete(this.trees.keys().next().value!);
    this.trees.set(`${accountId}:${hash}`, Object.freeze({ ...entries }));
  }
}
