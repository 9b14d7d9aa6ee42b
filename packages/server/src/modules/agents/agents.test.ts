import { sampleModelFiles } from '@plinth/semantic';
import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { adminOf, commitFiles } from '../builds/test-fixtures.js';
import { cases } from './authorization.cases.js';

const LLM = { name: 'Local vLLM', baseUrl: 'https://llm.example.com/v1/', model: 'qwen2.5', apiKey: 'sk-secret-key' };

async function setup(server: TestServer, built = false) {
  const account = await server.newAccount();
  const deploymentId = (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
  if (built) {
    await commitFiles(server.services, adminOf(account), deploymentId, sampleModelFiles());
    await server.jobs.runUntilIdle();
  }
  const agents = `/api/v1/deployments/${deploymentId}/agents`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, as: TestAccount['admin'] = account.admin) =>
    account.request({ method, url, body, as });
  return { account, deploymentId, agents, call };
}

describeOnStores('agents', (server) => {
  describe('LLM endpoints', () => {
    it('creates, lists, updates and deletes an endpoint; the key is sealed and never returned', async () => {
      const { account, call } = await setup(server());
      const created = await call('POST', '/api/v1/agent-llms', LLM);
      expect(created.status, created.text).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'Local vLLM',
        llmProvider: 'openai-compatible',
        llmType: 'chat',
        config: { baseUrl: 'https://llm.example.com/v1', model: 'qwen2.5' },
        hasApiKey: true,
        userId: account.admin.id,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(created.text).not.toContain('sk-secret-key');
      const stored = await server()
        .store.db.selectFrom('agent_llm')
        .select('api_key_sealed')
        .where('id', '=', created.body.id)
        .executeTakeFirstOrThrow();
      expect(stored.api_key_sealed).not.toContain('sk-secret-key');
      expect(stored.api_key_sealed).toMatch(/^v1\./);

      const listed = await call('GET', '/api/v1/agent-llms', undefined, account.member);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([created.body]);
      expect(listed.text).not.toContain('sk-secret-key');

      const cleared = await call('PUT', `/api/v1/agent-llms/${created.body.id}`, { apiKey: null, model: 'llama3' });
      expect([cleared.status, cleared.body.hasApiKey, cleared.body.config.model]).toEqual([200, false, 'llama3']);
      const deleted = await call('DELETE', `/api/v1/agent-llms/${created.body.id}`);
      expect([deleted.status, deleted.body]).toEqual([200, { id: created.body.id, deleted: true }]);
      expect((await call('GET', '/api/v1/agent-llms')).body).toEqual([]);
    });

    it.each([
      [{ ...LLM, baseUrl: 'ftp://llm.example.com' }, /baseUrl must be http or https, not ftp/],
      [{ ...LLM, baseUrl: 'not a url' }, /baseUrl "not a url" is not a URL/],
      [{ ...LLM, baseUrl: 'https://me:pw@llm.example.com' }, /must not carry a user or password/],
      [{ ...LLM, model: '' }, /model/],
      [{ ...LLM, extra: 1 }, /unknown property "extra"/],
      [{ baseUrl: LLM.baseUrl, model: 'm' }, /required property "name"/],
    ])('%j → 400', async (body, message) => {
      const { call } = await setup(server());
      const response = await call('POST', '/api/v1/agent-llms', body);
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toMatch(message);
    });

    it('names are unique in the account ignoring case; an endpoint in use is not deleted', async () => {
      const { agents, call } = await setup(server());
      const llm = (await call('POST', '/api/v1/agent-llms', LLM)).body;
      const again = await call('POST', '/api/v1/agent-llms', { ...LLM, name: 'local VLLM' });
      expect([again.status, again.body.error]).toEqual([409, 'An agent LLM named "local VLLM" already exists']);
      expect((await call('POST', agents, { name: 'Helper', agentLlmId: llm.id })).status).toBe(201);
      const refused = await call('DELETE', `/api/v1/agent-llms/${llm.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatch(/used by 1 agent\(s\) \(Helper\)/);
    });

    it('deleting the account takes its endpoints and the agents calling them', async () => {
      const { account, agents, call } = await setup(server());
      const llm = (await call('POST', '/api/v1/agent-llms', LLM)).body;
      expect((await call('POST', agents, { name: 'a', agentLlmId: llm.id })).status).toBe(201);
      await server().store.db.deleteFrom('account').where('id', '=', account.id).execute();
      const left = await server().store.db.selectFrom('agent_llm').select('id').where('account_id', '=', account.id).execute();
      expect(left).toEqual([]);
    });

    it("another account's endpoint is 404, and 400 when an agent names it", async () => {
      const { agents, call } = await setup(server());
      const stranger = await server().newAccount();
      const theirs = await server().services.agentLlms.create(stranger.id, stranger.admin.id, {
        name: 'x',
        baseUrl: 'http://x',
        model: 'm',
      });
      expect((await call('PUT', `/api/v1/agent-llms/${theirs.id}`, { model: 'n' })).status).toBe(404);
      expect((await call('DELETE', `/api/v1/agent-llms/${theirs.id}`)).status).toBe(404);
      const named = await call('POST', agents, { name: 'a', agentLlmId: theirs.id });
      expect([named.status, named.body.error]).toEqual([400, `agentLlmId ${theirs.id} is not an LLM endpoint of this account`]);
    });
  });

  describe('agents of a deployment', () => {
    it('creates an agent over views of the current build, lists it (filtered by allowEmbedding), updates and deletes it', async () => {
      const { account, agents, call, deploymentId } = await setup(server(), true);
      const llm = (await call('POST', '/api/v1/agent-llms', LLM)).body;
      const created = await call('POST', agents, {
        name: 'Sales helper',
        accessibleViews: ['sales'],
        agentLlmId: llm.id,
        allowEmbedding: true,
        config: { instructions: 'Be brief' },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Sales helper',
        deploymentId,
        accessibleViews: ['sales'],
        agentLlmId: llm.id,
        agentLlm: { id: llm.id, hasApiKey: true },
        allowEmbedding: true,
        config: { instructions: 'Be brief' },
        userId: account.admin.id,
      });
      expect(created.text).not.toContain('sk-secret-key');
      const plain = (await call('POST', agents, { name: 'Plain' })).body;
      expect(plain).toMatchObject({ accessibleViews: [], agentLlmId: null, agentLlm: null, allowEmbedding: false, config: null });

      const all = await call('GET', agents, undefined, account.member);
      expect(all.body.map((a: { name: string }) => a.name)).toEqual(['Sales helper', 'Plain']);
      expect((await call('GET', `${agents}?allowEmbedding=true`)).body.map((a: { id: number }) => a.id)).toEqual([created.body.id]);
      expect((await call('GET', `${agents}?allowEmbedding=false`)).body.map((a: { id: number }) => a.id)).toEqual([plain.id]);

      const updated = await call('PUT', `${agents}/${plain.id}`, { allowEmbedding: true, agentLlmId: llm.id });
      expect(updated.body).toMatchObject({ name: 'Plain', allowEmbedding: true, agentLlmId: llm.id });
      const unset = await call('PUT', `${agents}/${plain.id}`, { agentLlmId: null });
      expect(unset.body.agentLlmId).toBeNull();
      expect((await call('DELETE', `${agents}/${plain.id}`)).body).toEqual({ id: plain.id, deleted: true });
      expect((await call('PUT', `${agents}/${plain.id}`, { name: 'x' })).status).toBe(404);
    });

    it.each([
      [{ name: 'a', accessibleViews: ['nope'] }, /accessibleViews: "nope" is not a view of deployment \d+'s current build/],
      [{ name: 'a', accessibleViews: ['orders'] }, /accessibleViews: "orders" is a cube, not a view,/],
      [{ name: 'a', accessibleViews: 'sales' }, /accessibleViews/],
      [{ name: ' ' }, /name must not be blank/],
      [{ name: 'a', color: 'red' }, /unknown property "color"/],
      [{ name: 'a', config: 'x' }, /config/],
    ])('%j → 400', async (body, message) => {
      const { agents, call } = await setup(server(), true);
      const response = await call('POST', agents, body);
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toMatch(message);
    });

    it('views cannot be checked before the deployment has a build; names are unique per deployment', async () => {
      const { agents, call } = await setup(server());
      const unbuilt = await call('POST', agents, { name: 'a', accessibleViews: ['sales'] });
      expect(unbuilt.status).toBe(400);
      expect(unbuilt.body.error).toMatch(/accessibleViews cannot be checked: deployment \d+ has no usable build/);
      expect((await call('POST', agents, { name: 'Helper' })).status).toBe(201);
      expect((await call('POST', agents, { name: 'helper' })).status).toBe(409);
    });

    it("another deployment's agent is 404 under this deployment", async () => {
      const { account, agents, call } = await setup(server());
      const other = (await server().services.deployments.create(account.id, { name: 'o' }, 'http://localhost')).id;
      const agent = (await call('POST', `/api/v1/deployments/${other}/agents`, { name: 'theirs' })).body;
      expect((await call('PUT', `${agents}/${agent.id}`, { name: 'mine' })).status).toBe(404);
      expect((await call('DELETE', `${agents}/${agent.id}`)).status).toBe(404);
    });

    it('skills: what an agent can do through the data API', async () => {
      const { agents, call, account } = await setup(server());
      const response = await call('GET', agents.replace('/agents', '/agent-skills?branchName=main'), undefined, account.member);
      expect(response.status).toBe(200);
      expect(response.body.skills.map((s: { name: string }) => s.name)).toEqual([
        'list_views',
        'describe_view',
        'generate_sql',
        'query_data',
      ]);
      for (const skill of response.body.skills) {
        expect(skill).toEqual({ name: expect.any(String), title: expect.any(String), description: expect.any(String), input: skill.input });
        if (skill.input !== null) expect(JSON.parse(skill.input)).toMatchObject({ type: 'object' });
      }
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
