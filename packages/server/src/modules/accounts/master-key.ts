import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { randomBase62 } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';

/**
 * The key that seals stored secrets. `PLINTH_SECRET_KEY` wins; otherwise one is generated on first
 * start and kept in the store, so every replica on the same database shares it.
 */
export async function loadMasterKey(db: Kysely<Database>, config: Config): Promise<string> {
  if (config.secretKey) return config.secretKey;
  await db
    .insertInto('instance_secret')
    .values({ name: 'master_key', value: randomBase62(64) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('instance_secret').select('value').where('name', '=', 'master_key').executeTakeFirstOrThrow();
  return row.value;
}
