import { keepFresh } from '../../store/account-caches.js';
import type { Store } from '../../store/store.js';
import { EMBED_LOOKUP_WRITES, type EmbedLookups } from './lookups.js';

/** Channel of migration 0007's triggers. */
export const EMBED_LOOKUPS_CHANNEL = 'plinth_embed_lookups';

/** The embedding lookups forget an account the moment a deployment, setting or catalog name changes. */
export function watchEmbedLookupChanges(store: Store, lookups: EmbedLookups): Promise<void> {
  return keepFresh(store, EMBED_LOOKUPS_CHANNEL, EMBED_LOOKUP_WRITES, lookups);
}
