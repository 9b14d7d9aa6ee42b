import { Type, type Static } from '@sinclair/typebox';
import { IntegerId, Timestamp } from '../../http/common-schemas.js';

const Enabled = Type.Boolean({ description: "Whether the account's users may use agents; off, no token is issued." });
const TokenTtl = Type.Integer({
  minimum: 60,
  maximum: 3600,
  description: 'Lifetime in seconds of the token getAIEngineerSettings issues (900 unless set).',
});

/** The reference's `AIEngineerSettings`, plus the account's settings and the token's expiry. */
export const AIEngineerSettings = Type.Object(
  {
    url: Type.String({
      description: "The account's Plinth API base URL (`{base_url}/api/v1`), where an AI engineer reaches agents and data.",
    }),
    token: Type.String({
      description:
        "A short-lived access token of the caller (same user, same rights, at most tokenTtlSeconds), for the AI engineer to act as them; '' when the account has turned agents off, and for an API key (the token would act as the key's user, who may hold more than the key).",
    }),
    expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'When `token` expires; null without a token.' }),
    cubeCredentials: Type.Null({ description: 'Plinth mints no data API token here: the data API takes tokens of deploymentToken.' }),
    graphqlToken: Type.Null({ description: 'Plinth serves no GraphQL API.' }),
    mcpToken: Type.Null({ description: 'Plinth serves no MCP server.' }),
    hasAgentAccess: Type.Boolean({ description: 'Whether the caller may use agents: the account has them on.' }),
    enabled: Enabled,
    tokenTtlSeconds: Type.Integer(),
  },
  { $id: 'AIEngineerSettings' },
);

export const AIEngineerAccountSettings = Type.Object(
  {
    enabled: Enabled,
    tokenTtlSeconds: Type.Integer(),
    updatedAt: Type.Union([Timestamp, Type.Null()], { description: 'Null while the defaults apply.' }),
  },
  { $id: 'AIEngineerAccountSettings' },
);

export const UpdateAIEngineerSettingsBody = Type.Object(
  { enabled: Type.Optional(Enabled), tokenTtlSeconds: Type.Optional(TokenTtl) },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateAIEngineerSettingsInput' },
);

export const SettingsQuery = Type.Object(
  {
    deploymentId: Type.Optional({ ...IntegerId, description: 'A deployment of the account (404 otherwise); the token is the same.' }),
    agentId: Type.Optional({ ...IntegerId, description: 'An agent of the account (404 otherwise); the token is the same.' }),
  },
  { additionalProperties: false },
);

export const ActiveAgentRegion = Type.Object(
  {
    userId: Type.Integer(),
    regionName: Type.String({ description: 'The region chosen, or the first configured region (PLINTH_REGIONS) when none is.' }),
    createdAt: Type.Union([Timestamp, Type.Null()], { description: 'Null while the default applies.' }),
    updatedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'ActiveAgentRegion' },
);

export const UpdateActiveAgentRegionBody = Type.Object(
  { regionName: Type.String({ minLength: 1, maxLength: 63, description: 'One of the regions of getRegions.' }) },
  { additionalProperties: false, $id: 'UpdateActiveAgentRegionInput' },
);

export type AIEngineerSettingsView = Static<typeof AIEngineerSettings>;
export type AccountSettingsView = Static<typeof AIEngineerAccountSettings>;
export type ActiveAgentRegionView = Static<typeof ActiveAgentRegion>;
export type UpdateAIEngineerSettingsInput = Static<typeof UpdateAIEngineerSettingsBody>;

export const aiEngineerSchemas = [
  AIEngineerSettings,
  AIEngineerAccountSettings,
  UpdateAIEngineerSettingsBody,
  ActiveAgentRegion,
  UpdateActiveAgentRegionBody,
];
