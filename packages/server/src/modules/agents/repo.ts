import type { Insertable, Kysely, Updateable } from 'kysely';
import type { AgentLlmTable, AgentTable, Database } from '../../store/schema.js';

/** Rows of the account's LLM endpoints and of each deployment's agents; every read names the account. */
export class AgentRepo {
  constructor(private readonly db: Kysely<Database>) {}

  llms(accountId: number) {
    return this.db.selectFrom('agent_llm').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
  }

  llm(accountId: number, id: number) {
    return this.db.selectFrom('agent_llm').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  insertLlm(values: Insertable<AgentLlmTable>) {
    return this.db.insertInto('agent_llm').values(values).returningAll().executeTakeFirstOrThrow();
  }

  updateLlm(accountId: number, id: number, values: Updateable<AgentLlmTable>) {
    return this.db
      .updateTable('agent_llm')
      .set({ ...values, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteLlm(accountId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('agent_llm').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Names of the agents (of any deployment of the account) that call an endpoint. */
  async agentsCalling(accountId: number, llmId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('agent')
      .select('name')
      .where('account_id', '=', accountId)
      .where('agent_llm_id', '=', llmId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.name);
  }

  agents(accountId: number, deploymentId: number, allowEmbedding?: boolean) {
    return this.db
      .selectFrom('agent')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .$if(allowEmbedding !== undefined, (q) => q.where('allow_embedding', '=', allowEmbedding!))
      .orderBy('id')
      .execute();
  }

  agent(accountId: number, deploymentId: number, id: number) {
    return this.db
      .selectFrom('agent')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  agentOfAccount(accountId: number, id: number) {
    return this.db.selectFrom('agent').select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  /** An agent of the account by id alone, whatever its deployment (the chat's URL names only the agent). */
  agentById(accountId: number, id: number) {
    return this.db.selectFrom('agent').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  insertAgent(values: Insertable<AgentTable>) {
    return this.db.insertInto('agent').values(values).returningAll().executeTakeFirstOrThrow();
  }

  updateAgent(accountId: number, deploymentId: number, id: number, values: Updateable<AgentTable>) {
    return this.db
      .updateTable('agent')
      .set({ ...values, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteAgent(accountId: number, deploymentId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('agent')
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
