import { demandAllowedUrl } from '../../egress/saved-url.js';
import type { EgressPolicy } from '../../egress/policy.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { toIso } from '../../http/common-schemas.js';
import type { SecretBox } from '../../lib/secrets.js';
import { isUniqueViolation } from '../../store/executor.js';
import type { AgentLlmRow } from '../../store/schema.js';
import type { AgentRepo } from './repo.js';
import type { AgentLlmView, CreateAgentLlmInput, UpdateAgentLlmInput } from './schemas.js';

/**
 * The account's LLM endpoints: OpenAI-compatible HTTP APIs its agents call. Nothing is built in:
 * an account with no endpoint has agents that call nothing. The API key is sealed with the
 * instance's secret box on the way in and never leaves again (`hasApiKey` says whether one is kept).
 */
export class AgentLlmService {
  constructor(
    private readonly repo: AgentRepo,
    private readonly secrets: SecretBox,
    private readonly egress: EgressPolicy,
  ) {}

  async list(accountId: number): Promise<AgentLlmView[]> {
    return (await this.repo.llms(accountId)).map(llmView);
  }

  async get(accountId: number, id: number): Promise<AgentLlmView> {
    return llmView(await this.row(accountId, id));
  }

  async create(accountId: number, userId: number, input: CreateAgentLlmInput): Promise<AgentLlmView> {
    await demandAllowedUrl(this.egress, 'baseUrl', checkBaseUrl(input.baseUrl));
    const row = await uniqueName(input.name, () =>
      this.repo.insertLlm({
        account_id: accountId,
        name: checkName(input.name),
        base_url: checkBaseUrl(input.baseUrl),
        model: input.model,
        api_key_sealed: input.apiKey === undefined ? null : this.secrets.seal(input.apiKey),
        created_by: userId,
      }),
    );
    return llmView(row);
  }

  async update(accountId: number, id: number, input: UpdateAgentLlmInput): Promise<AgentLlmView> {
    await this.row(accountId, id);
    if (input.baseUrl !== undefined) await demandAllowedUrl(this.egress, 'baseUrl', checkBaseUrl(input.baseUrl));
    const row = await uniqueName(input.name ?? '', () =>
      this.repo.updateLlm(accountId, id, {
        ...(input.name !== undefined ? { name: checkName(input.name) } : {}),
        ...(input.baseUrl !== undefined ? { base_url: checkBaseUrl(input.baseUrl) } : {}),
        ...(input.model !== undefined ? { model: input.model } : {}),
        ...(input.apiKey !== undefined ? { api_key_sealed: input.apiKey === null ? null : this.secrets.seal(input.apiKey) } : {}),
      }),
    );
    if (!row) throw notFound(`Agent LLM ${id} not found`);
    return llmView(row);
  }

  /** Refused while an agent calls it: deleting it would leave agents silently calling nothing. */
  async delete(accountId: number, id: number): Promise<void> {
    await this.row(accountId, id);
    const callers = await this.repo.agentsCalling(accountId, id);
    if (callers.length > 0) {
      throw conflict(
        `Agent LLM ${id} is used by ${callers.length} agent(s) (${callers.slice(0, 5).join(', ')}); point them elsewhere first`,
      );
    }
    if (!(await this.repo.deleteLlm(accountId, id))) throw notFound(`Agent LLM ${id} not found`);
  }

  /** The endpoint with its key opened, for the chat runtime's calls; never sent to a client. */
  async endpoint(accountId: number, id: number): Promise<{ baseUrl: string; model: string; apiKey: string | null } | undefined> {
    const row = await this.repo.llm(accountId, id);
    if (!row) return undefined;
    return { baseUrl: row.base_url, model: row.model, apiKey: row.api_key_sealed === null ? null : this.secrets.open(row.api_key_sealed) };
  }

  /** 400 (not 404) for a body field naming an endpoint the account does not have. */
  async assertExists(accountId: number, id: number, field: string): Promise<void> {
    if (!(await this.repo.llm(accountId, id))) throw badRequest(`${field} ${id} is not an LLM endpoint of this account`);
  }

  private async row(accountId: number, id: number): Promise<AgentLlmRow> {
    const row = await this.repo.llm(accountId, id);
    if (!row) throw notFound(`Agent LLM ${id} not found`);
    return row;
  }
}

export function llmView(row: AgentLlmRow): AgentLlmView {
  return {
    id: row.id,
    name: row.name,
    llmProvider: 'openai-compatible',
    llmType: 'chat',
    config: { baseUrl: row.base_url, model: row.model },
    hasApiKey: row.api_key_sealed !== null,
    userId: row.created_by,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

function checkName(name: string): string {
  if (name.trim() === '') throw badRequest('name must not be blank');
  return name;
}

/**
 * http(s) only, and no user or password in it: the URL is shown to every reader of the account's
 * endpoints, so a key belongs in `apiKey`, where it is sealed.
 */
export function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`baseUrl "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest(`baseUrl must be http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username || url.password) throw badRequest('baseUrl must not carry a user or password; give the key as apiKey');
  if (url.search || url.hash) throw badRequest('baseUrl must not have a query or fragment');
  return raw.replace(/\/+$/, '');
}

async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`An agent LLM named "${name}" already exists`);
    throw error;
  }
}
