import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IntegerId, Timestamp } from '../../http/common-schemas.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Name = Type.String({ minLength: 1, maxLength: 200 });
const BaseUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Base URL of an OpenAI-compatible API (http or https, e.g. `https://api.example.com/v1`); no credentials in it.',
});
const Model = Type.String({ minLength: 1, maxLength: 200, description: 'The model name the endpoint is asked for.' });
const ApiKey = Type.String({ minLength: 1, maxLength: 4096, description: 'Sealed when stored; never returned.' });
const Config = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
  description: 'Free-form settings of the agent (instructions, temperature, ...), at most 64 KB as JSON.',
});

/** An LLM endpoint as the reference's `AgentLlm`, with the Plinth fields of an OpenAI-compatible endpoint in `config`. */
export const AgentLlm = Type.Object(
  {
    id: Type.Integer(),
    name: Nullable(Type.String()),
    llmProvider: Nullable(Type.String({ description: 'Always `openai-compatible`.' })),
    llmType: Nullable(Type.String({ description: 'Always `chat`.' })),
    config: Type.Union([Type.Object({ baseUrl: Type.String(), model: Type.String() }, { additionalProperties: true }), Type.Null()]),
    hasApiKey: Type.Boolean({ description: 'Whether a key is stored; the key itself is never returned.' }),
    userId: Type.Union([Type.Integer(), Type.Null()], { description: 'Who created it.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'AgentLlm' },
);

export const CreateAgentLlmBody = Type.Object(
  { name: Name, baseUrl: BaseUrl, model: Model, apiKey: Type.Optional(ApiKey) },
  { additionalProperties: false, $id: 'CreateAgentLlmInput' },
);
export const UpdateAgentLlmBody = Type.Object(
  {
    name: Type.Optional(Name),
    baseUrl: Type.Optional(BaseUrl),
    model: Type.Optional(Model),
    apiKey: Type.Optional(Type.Union([ApiKey, Type.Null()], { description: 'A new key; null removes the stored one.' })),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateAgentLlmInput' },
);

/** The reference's `Agent`, plus `allowEmbedding` (the reference filters agents by it). */
export const Agent = Type.Object(
  {
    id: Type.Integer(),
    name: Nullable(Type.String()),
    deploymentId: Type.Union([Type.Integer(), Type.Null()]),
    accessibleViews: Type.Union([Type.Array(Type.String()), Type.Null()]),
    agentLlmId: Type.Union([Type.Integer(), Type.Null()]),
    agentLlm: Type.Union([Type.Ref(AgentLlm), Type.Null()]),
    allowEmbedding: Type.Boolean({ description: 'Whether embedded pages (embed tokens of the deployment) may use the agent.' }),
    config: Config,
    agentConfigName: Nullable(Type.String()),
    agentSpaceId: Type.Union([Type.Integer(), Type.Null()]),
    agentSpace: Type.Null({ description: 'Plinth has no agent spaces.' }),
    embeddingLlm: Type.Null(),
    embeddingUrl: Type.Null(),
    dedicatedAiEngineerRegion: Type.Null(),
    integrations: Type.Null(),
    userId: Type.Union([Type.Integer(), Type.Null()], { description: 'Who created it.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Agent' },
);

const AccessibleViews = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 500,
  description: "Views of the deployment's current build the agent may query; each must exist there.",
});
const AgentLlmId = Type.Union([IntegerId, Type.Null()], { description: 'An LLM endpoint of the account; null for none yet.' });

export const CreateAgentBody = Type.Object(
  {
    name: Name,
    accessibleViews: Type.Optional(AccessibleViews),
    agentLlmId: Type.Optional(AgentLlmId),
    allowEmbedding: Type.Optional(Type.Boolean({ default: false })),
    config: Type.Optional(Config),
  },
  { additionalProperties: false, $id: 'CreateAgentInput' },
);
export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Name),
    accessibleViews: Type.Optional(AccessibleViews),
    agentLlmId: Type.Optional(AgentLlmId),
    allowEmbedding: Type.Optional(Type.Boolean()),
    config: Type.Optional(Config),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateAgentInput' },
);

export const AgentSkill = Type.Object(
  {
    name: Type.String(),
    title: Type.String(),
    description: Type.String(),
    input: Type.Union([Type.String({ description: 'A JSON Schema of the skill input, as text.' }), Type.Null()]),
  },
  { $id: 'AgentSkillDto' },
);
export const AgentSkillsResponse = Type.Object({ skills: Type.Array(Type.Ref(AgentSkill)) }, { $id: 'AgentSkillsResponse' });

export const DeploymentParams = Type.Object({ deploymentId: IntegerId });
export const AgentParams = Type.Object({ deploymentId: IntegerId, agentId: IntegerId });
export const LlmParams = Type.Object({ agentLlmId: IntegerId });
export const AgentsQuery = Type.Object(
  { allowEmbedding: Type.Optional(Type.Boolean({ description: 'Only the agents whose allowEmbedding is this.' })) },
  { additionalProperties: false },
);
export const SkillsQuery = Type.Object(
  {
    space: Type.Optional(Type.String({ maxLength: 200, description: 'Accepted as the reference has it; Plinth has no spaces.' })),
    branchName: Type.Optional(Type.String({ maxLength: 200, description: 'Accepted; the skills do not depend on the branch.' })),
  },
  { additionalProperties: false },
);

export type AgentView = Static<typeof Agent>;
export type AgentLlmView = Static<typeof AgentLlm>;
export type CreateAgentInput = Static<typeof CreateAgentBody>;
export type UpdateAgentInput = Static<typeof UpdateAgentBody>;
export type CreateAgentLlmInput = Static<typeof CreateAgentLlmBody>;
export type UpdateAgentLlmInput = Static<typeof UpdateAgentLlmBody>;

export const agentSchemas = [
  AgentLlm,
  CreateAgentLlmBody,
  UpdateAgentLlmBody,
  Agent,
  CreateAgentBody,
  UpdateAgentBody,
  AgentSkill,
  AgentSkillsResponse,
];
