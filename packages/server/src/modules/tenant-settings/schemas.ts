import { Type } from '@sinclair/typebox';
import { BULK_ACTION_LIMIT } from './service.js';

const BulkActionLimit = Type.Integer({
  minimum: BULK_ACTION_LIMIT.min,
  maximum: BULK_ACTION_LIMIT.max,
  description: 'Most entries one bulk request may carry, e.g. bulk embed user provisioning.',
});

export const TenantSettings = Type.Object(
  {
    useCreatorMode: Type.Boolean({ description: 'Allows creator-mode embed sessions.' }),
    bulkActionLimit: BulkActionLimit,
    showDashboardChat: Type.Boolean(),
    embeddingEnabled: Type.Boolean({ description: 'Allows signed embedding: while false, generate-session answers 403. On by default.' }),
    embedFrameAncestors: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'Origins whose pages may frame the embed pages (their CSP `frame-ancestors`); null, the default: any origin.',
    }),
    maxExternalUsers: Type.Integer({
      readOnly: true,
      description: 'External users allowed per account; set by PLINTH_MAX_EXTERNAL_USERS.',
    }),
  },
  { $id: 'TenantSettings' },
);

/**
 * `maxExternalUsers` is accepted by the schema only so the service can say why it cannot be
 * changed, rather than the caller getting a bare "unknown property".
 */
export const UpdateTenantSettingsBody = Type.Object(
  {
    useCreatorMode: Type.Optional(Type.Boolean()),
    bulkActionLimit: Type.Optional(BulkActionLimit),
    showDashboardChat: Type.Optional(Type.Boolean()),
    embeddingEnabled: Type.Optional(Type.Boolean({ description: 'false turns signed embedding off for the account.' })),
    embedFrameAncestors: Type.Optional(
      Type.Union([Type.Array(Type.String({ maxLength: 300 }), { maxItems: 50 }), Type.Null()], {
        description: 'Plain http(s) origins (`https://app.example.com`, no path) allowed to frame the embed pages; null allows any origin.',
      }),
    ),
    maxExternalUsers: Type.Optional(Type.Unknown({ readOnly: true, description: 'Read-only: sending it fails.' })),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateTenantSettingsInput' },
);

export const tenantSettingsSchemas = [TenantSettings, UpdateTenantSettingsBody];
