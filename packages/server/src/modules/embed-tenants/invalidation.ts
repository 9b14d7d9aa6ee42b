import type { Store } from '../../store/store.js';
import { EMBED_LOOKUP_WRITES, type EmbedLookups } from './lookups.js';

export const EMBED_LOOKUPS_CHANNEL = 'plinth_embed_lookups';

/**
 * Keeps the embedding lookups honest: a write in this process empties them at once, and a NOTIFY
 * from any process (sent on commit by migration 0007's triggers) empties the account's entries.
 * A lost LISTEN connection empties everything.
 */
export async function watchEmbedLookupChanges(store: Store, lookups: EmbedLookups): Promise<void> {
  store.watchWrites(EMBED_LOOKUP_WRITES, () => lookups.forgetAll());
  await store.listen(EMBED_LOOKUPS_CHANNEL, (payload) => {
    const accountId = Number(payload);
    if (payload === null || !Number.isInteger(accountId)) lookups.forgetAll();
    else lookups.forgetAccount(accountId);
  });
}
