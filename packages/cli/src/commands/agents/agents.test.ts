import { expect, it } from 'vitest';
import { sampleModelFiles } from '@plinth/server/test-support';
import { deploymentWithModel, withRunner } from '../../test-support/cli-model.js';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth agents', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });
  // stderr as a terminal: status lines such as "Deleted ..." are printed only there.
  const ok = async (argv: string[], apiKey?: string) => {
    const result = await plinth(argv, { env: env(apiKey), stderrIsTTY: true });
    expect(result.code, result.stderr).toBe(0);
    return result;
  };

  it('llms create/list/update/delete: the key is sent, never printed', async () => {
    const created = await ok([
      'agents',
      'llms',
      'create',
      '--name',
      'vllm',
      '--base-url',
      'https://llm.example.com/v1',
      '--model',
      'qwen',
      '--api-key',
      'sk-top-secret',
      '--json',
    ]);
    const llm = JSON.parse(created.stdout);
    expect(llm).toMatchObject({ name: 'vllm', hasApiKey: true, config: { baseUrl: 'https://llm.example.com/v1', model: 'qwen' } });
    const listed = await ok(['agents', 'llms', 'list'], ctx().member.apiKey);
    expect(listed.stdout).toMatch(new RegExp(`${llm.id}\\s+vllm\\s+https://llm.example.com/v1\\s+qwen\\s+true`));
    expect(listed.stdout).not.toContain('sk-top-secret');
    const updated = await ok(['agents', 'llms', 'update', String(llm.id), '-d', '{"apiKey": null}', '--json']);
    expect(JSON.parse(updated.stdout).hasApiKey).toBe(false);
    const deleted = await ok(['agents', 'llms', 'delete', String(llm.id)]);
    expect(deleted.stderr + deleted.stdout).toMatch(new RegExp(`Deleted LLM endpoint ${llm.id}`));
  });

  it('create over views of the current build, list, update, skills and delete', async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), sampleModelFiles());
    await withRunner(ctx(), () => ctx().server.jobs.runUntilIdle());
    const d = String(deploymentId);
    const llm = JSON.parse(
      (await ok(['agents', 'llms', 'create', '--name', `l${d}`, '--base-url', 'http://llm', '--model', 'm', '--json'])).stdout,
    );
    const created = await ok([
      'agents',
      'create',
      d,
      '--name',
      'Sales helper',
      '--views',
      'sales',
      '--llm',
      String(llm.id),
      '--allow-embedding',
      'true',
      '--config',
      '{"instructions":"Be brief"}',
      '--json',
    ]);
    const agent = JSON.parse(created.stdout);
    expect(agent).toMatchObject({
      accessibleViews: ['sales'],
      agentLlmId: llm.id,
      allowEmbedding: true,
      config: { instructions: 'Be brief' },
    });

    const listed = await ok(['agents', 'list', d], ctx().member.apiKey);
    expect(listed.stdout).toMatch(new RegExp(`${agent.id}\\s+Sales helper\\s+sales\\s+${llm.id}\\s+true`));
    const none = await ok(['agents', 'list', d, '--allow-embedding', 'false', '--json']);
    expect(JSON.parse(none.stdout)).toEqual([]);

    const updated = await ok(['agents', 'update', d, String(agent.id), '--llm', 'none', '--views', '', '--json']);
    expect(JSON.parse(updated.stdout)).toMatchObject({ agentLlmId: null, accessibleViews: [] });
    const unknown = await plinth(['agents', 'update', d, String(agent.id), '--views', 'nope'], { env: env() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/"nope" is not a view/);

    const skills = await ok(['agents', 'skills', d]);
    expect(skills.stdout).toMatch(/query_data\s+Query data/);
    const removed = await ok(['agents', 'delete', d, String(agent.id)]);
    expect(removed.stderr + removed.stdout).toMatch(new RegExp(`Deleted agent ${agent.id}`));
  });

  it.each([
    [['agents', 'create', '1'], /--name/],
    [['agents', 'create', '1', '--name', 'a', '--llm', 'x'], /--llm must be a positive whole number/],
    [['agents', 'create', '1', '--name', 'a', '--config', '[1'], /--config expects a JSON object/],
    [['agents', 'list', '1', '--allow-embedding', 'maybe'], /--allow-embedding expects true or false/],
    [['agents', 'llms', 'create', '--name', 'x'], /--base-url, --model/],
  ])('usage errors exit 2: %j', async (argv, message) => {
    const result = await plinth(argv, { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
