import { ApiError, badRequest, conflict, notFound } from '../../http/errors.js';
import { toIso } from '../../http/common-schemas.js';
import type { UserPrincipal } from '../../http/principal.js';
import { contextFor } from '../../pipeline/context.js';
import { isUniqueViolation } from '../../store/executor.js';
import type { AgentRow } from '../../store/schema.js';
import type { Services } from '../module.js';
import { llmView, type AgentLlmService } from './llms.js';
import type { AgentRepo } from './repo.js';
import type { AgentView, CreateAgentInput, UpdateAgentInput } from './schemas.js';

const MAX_CONFIG_BYTES = 64 * 1024;

/** What the chat runtime needs of an agent (modules/chat). */
export interface ChatAgent {
  id: number;
  name: string;
  deploymentId: number;
  accessibleViews: string[];
  allowEmbedding: boolean;
  llm: { baseUrl: string; model: string; apiKey: string | null } | null;
}

/**
 * Agents of a deployment: a name, the views of the deployment's model they may query, the
 * account's LLM endpoint they call and whether embedded pages may use them. Views are checked
 * against the deploy branch's current build when they are set, so an agent never names a view
 * the model did not have then (a later build may drop one: the data API then refuses its queries).
 */
export class AgentService {
  constructor(
    private readonly repo: AgentRepo,
    private readonly llms: AgentLlmService,
    private readonly services: Pick<Services, 'deployments' | 'dataApi'>,
  ) {}

  async list(accountId: number, deploymentId: number, allowEmbedding?: boolean): Promise<AgentView[]> {
    await this.assertDeployment(accountId, deploymentId);
    const rows = await this.repo.agents(accountId, deploymentId, allowEmbedding);
    return Promise.all(rows.map((row) => this.view(row)));
  }

  async create(principal: UserPrincipal, deploymentId: number, input: CreateAgentInput): Promise<AgentView> {
    const { accountId } = principal;
    await this.assertDeployment(accountId, deploymentId);
    const views = await this.checkViews(principal, deploymentId, input.accessibleViews ?? []);
    if (input.agentLlmId != null) await this.llms.assertExists(accountId, input.agentLlmId, 'agentLlmId');
    const row = await uniqueName(input.name, () =>
      this.repo.insertAgent({
        account_id: accountId,
        deployment_id: deploymentId,
        name: checkName(input.name),
        accessible_views: JSON.stringify(views),
        agent_llm_id: input.agentLlmId ?? null,
        allow_embedding: input.allowEmbedding ?? false,
        config: checkConfig(input.config ?? null),
        created_by: principal.userId,
      }),
    );
    return this.view(row);
  }

  async update(principal: UserPrincipal, deploymentId: number, id: number, input: UpdateAgentInput): Promise<AgentView> {
    const { accountId } = principal;
    await this.row(accountId, deploymentId, id);
    const views = input.accessibleViews && (await this.checkViews(principal, deploymentId, input.accessibleViews));
    if (input.agentLlmId != null) await this.llms.assertExists(accountId, input.agentLlmId, 'agentLlmId');
    const row = await uniqueName(input.name ?? '', () =>
      this.repo.updateAgent(accountId, deploymentId, id, {
        ...(input.name !== undefined ? { name: checkName(input.name) } : {}),
        ...(views ? { accessible_views: JSON.stringify(views) } : {}),
        ...(input.agentLlmId !== undefined ? { agent_llm_id: input.agentLlmId } : {}),
        ...(input.allowEmbedding !== undefined ? { allow_embedding: input.allowEmbedding } : {}),
        ...(input.config !== undefined ? { config: checkConfig(input.config) } : {}),
      }),
    );
    if (!row) throw notFound(`Agent ${id} not found`);
    return this.view(row);
  }

  async delete(accountId: number, deploymentId: number, id: number): Promise<void> {
    await this.assertDeployment(accountId, deploymentId);
    if (!(await this.repo.deleteAgent(accountId, deploymentId, id))) throw notFound(`Agent ${id} not found`);
  }

  async assertDeployment(accountId: number, deploymentId: number): Promise<void> {
    if (!(await this.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }

  /** For operations that name an agent without its deployment (getAIEngineerSettings): 404 when the account has none. */
  async assertAgent(accountId: number, id: number): Promise<void> {
    if (!(await this.repo.agentOfAccount(accountId, id))) throw notFound(`Agent ${id} not found`);
  }

  /**
   * The agent the chat runs (by id, or the deployment's default: its first agent embedded pages may
   * use), with its LLM endpoint (key opened) or null when it has none; undefined when there is no such agent.
   */
  async forChat(accountId: number, which: { agentId: number } | { deploymentId: number }): Promise<ChatAgent | undefined> {
    const row =
      'agentId' in which
        ? await this.repo.agentById(accountId, which.agentId)
        : (await this.repo.agents(accountId, which.deploymentId, true))[0];
    if (!row) return undefined;
    const llm = row.agent_llm_id === null ? undefined : await this.llms.endpoint(accountId, row.agent_llm_id);
    return {
      id: row.id,
      name: row.name,
      deploymentId: row.deployment_id,
      accessibleViews: row.accessible_views,
      allowEmbedding: row.allow_embedding,
      llm: llm ?? null,
    };
  }

  /** Each name must be a view (not a cube) of the deploy branch's latest successful build. */
  private async checkViews(principal: UserPrincipal, deploymentId: number, names: string[]): Promise<string[]> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return unique;
    const { views, cubes } = await this.services.dataApi.modelOf(contextFor(principal), { deploymentId }).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'bad_request') {
        throw badRequest(`accessibleViews cannot be checked: deployment ${deploymentId} has no usable build (${error.message})`);
      }
      throw error;
    });
    for (const name of unique) {
      if (views.has(name)) continue;
      const what = cubes.has(name) ? 'is a cube, not a view,' : 'is not a view';
      throw badRequest(`accessibleViews: "${name}" ${what} of deployment ${deploymentId}'s current build`);
    }
    return unique;
  }

  private async row(accountId: number, deploymentId: number, id: number): Promise<AgentRow> {
    await this.assertDeployment(accountId, deploymentId);
    const row = await this.repo.agent(accountId, deploymentId, id);
    if (!row) throw notFound(`Agent ${id} not found`);
    return row;
  }

  private async view(row: AgentRow): Promise<AgentView> {
    const llm = row.agent_llm_id === null ? undefined : await this.repo.llm(row.account_id, row.agent_llm_id);
    return {
      id: row.id,
      name: row.name,
      deploymentId: row.deployment_id,
      accessibleViews: row.accessible_views,
      agentLlmId: row.agent_llm_id,
      agentLlm: llm ? llmView(llm) : null,
      allowEmbedding: row.allow_embedding,
      config: row.config,
      agentConfigName: null,
      agentSpaceId: null,
      agentSpace: null,
      embeddingLlm: null,
      embeddingUrl: null,
      dedicatedAiEngineerRegion: null,
      integrations: null,
      userId: row.created_by,
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    };
  }
}

function checkName(name: string): string {
  if (name.trim() === '') throw badRequest('name must not be blank');
  return name;
}

function checkConfig(config: Record<string, unknown> | null): string | null {
  if (config === null) return null;
  const text = JSON.stringify(config);
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) throw badRequest(`config is larger than ${MAX_CONFIG_BYTES / 1024} KB`);
  return text;
}

async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`An agent named "${name}" already exists in this deployment`);
    throw error;
  }
}
