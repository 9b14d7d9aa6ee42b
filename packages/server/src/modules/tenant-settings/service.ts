import type { Kysely, Updateable } from 'kysely';
import { badRequest } from '../../http/errors.js';
import type { Database, TenantSettingsTable } from '../../store/schema.js';
import { validFrameAncestors } from './frame-ancestors.js';
import { TenantSettingsRepo } from './repo.js';

export interface TenantSettings {
  useCreatorMode: boolean;
  bulkActionLimit: number;
  showDashboardChat: boolean;
  /** Issue 10 security 4: generate-session answers 403 while this is off. */
  embeddingEnabled: boolean;
  /** Origins that may frame the embed pages; null: any origin (the pages' CSP frame-ancestors). */
  embedFrameAncestors: string[] | null;
  /** Section 8: set for the whole installation by PLINTH_MAX_EXTERNAL_USERS, never per account. */
  maxExternalUsers: number;
}

export type TenantSettingsChanges = Partial<
  Pick<TenantSettings, 'useCreatorMode' | 'bulkActionLimit' | 'showDashboardChat' | 'embeddingEnabled' | 'embedFrameAncestors'>
>;

export const BULK_ACTION_LIMIT = { min: 1, max: 100_000, default: 1000 } as const;

/** Account-wide switches: embedding itself and its creator mode, the bulk-action limit (section 4.5 rule 6), dashboard chat. */
export class TenantSettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxExternalUsers: number,
  ) {}

  async get(accountId: number): Promise<TenantSettings> {
    const row = await new TenantSettingsRepo(this.db).find(accountId);
    // Accounts get their row when created; the defaults cover one made some other way.
    return {
      useCreatorMode: row?.use_creator_mode ?? false,
      bulkActionLimit: row?.bulk_action_limit ?? BULK_ACTION_LIMIT.default,
      showDashboardChat: row?.show_dashboard_chat ?? true,
      embeddingEnabled: row?.embedding_enabled ?? true,
      embedFrameAncestors: row?.embed_frame_ancestors ?? null,
      maxExternalUsers: this.maxExternalUsers,
    };
  }

  async update(accountId: number, input: TenantSettingsChanges & { maxExternalUsers?: unknown }): Promise<TenantSettings> {
    if (input.maxExternalUsers !== undefined) {
      throw badRequest('maxExternalUsers is read-only: it is set for the installation by PLINTH_MAX_EXTERNAL_USERS');
    }
    const limit = input.bulkActionLimit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < BULK_ACTION_LIMIT.min || limit > BULK_ACTION_LIMIT.max)) {
      throw badRequest(`bulkActionLimit must be an integer from ${BULK_ACTION_LIMIT.min} to ${BULK_ACTION_LIMIT.max}`);
    }
    const changes: Updateable<TenantSettingsTable> = {};
    if (input.useCreatorMode !== undefined) changes.use_creator_mode = input.useCreatorMode;
    if (limit !== undefined) changes.bulk_action_limit = limit;
    if (input.showDashboardChat !== undefined) changes.show_dashboard_chat = input.showDashboardChat;
    if (input.embeddingEnabled !== undefined) changes.embedding_enabled = input.embeddingEnabled;
    if (input.embedFrameAncestors !== undefined) {
      changes.embed_frame_ancestors =
        input.embedFrameAncestors === null ? null : JSON.stringify(validFrameAncestors(input.embedFrameAncestors));
    }
    await new TenantSettingsRepo(this.db).save(accountId, changes);
    return this.get(accountId);
  }
}
