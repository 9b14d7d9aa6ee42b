import { afterAll, beforeAll, expect, it } from 'vitest';
import { sampleModelFiles, startOpenAiStandIn, type OpenAiStandIn } from '@plinth/server/test-support';
import { deploymentWithModel, withRunner } from '../../test-support/cli-model.js';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth chat', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  let llm: OpenAiStandIn;
  beforeAll(async () => {
    llm = await startOpenAiStandIn();
  });
  afterAll(async () => {
    await llm.close();
  });

  /** An agent on the built sample model whose LLM is the stand-in, or none. */
  const agent = async (withLlm = true) => {
    const { deploymentId } = await deploymentWithModel(ctx(), sampleModelFiles());
    await withRunner(ctx(), () => ctx().server.jobs.runUntilIdle());
    const made = await plinth(
      ['agents', 'llms', 'create', '--name', `l${deploymentId}`, '--base-url', llm.baseUrl, '--model', 'm', '--json'],
      {
        env: env(),
      },
    );
    const llmId = JSON.parse(made.stdout).id as number;
    const args = ['agents', 'create', String(deploymentId), '--name', 'a', '--views', 'sales', '--allow-embedding', 'true', '--json'];
    const created = await plinth(withLlm ? [...args, '--llm', String(llmId)] : args, { env: env() });
    expect(created.code, created.stderr).toBe(0);
    return JSON.parse(created.stdout).id as number;
  };

  it('ask prints the answer and the thread; threads and thread read it back; --json passes the lines', async () => {
    const agentId = String(await agent());
    llm.script({ text: 'Hello from the agent.' });
    const asked = await plinth(['chat', 'ask', 'Hi there', '--agent', agentId, '--external-id', 'ann'], { env: env() });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout.trim()).toBe('Hello from the agent.');
    const chatId = /Thread: ([0-9a-f-]{36})/.exec(asked.stderr)![1]!;

    const listed = await plinth(['chat', 'threads', '--external-id', 'ann'], { env: env() });
    expect(listed.stdout).toMatch(new RegExp(`${chatId}\\s+Hi there`));
    const read = await plinth(['chat', 'thread', chatId, '--external-id', 'ann', '--json'], { env: env() });
    expect(JSON.parse(read.stdout).messages.map((m: { content: string }) => m.content)).toEqual(['Hi there', 'Hello from the agent.']);

    llm.script({ text: 'Again.' });
    const json = await plinth(['chat', 'ask', 'More', '--agent', agentId, '--external-id', 'ann', '--chat-id', chatId, '--json'], {
      env: env(),
    });
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ id: '__cutoff__', state: { chatId } });
    expect(lines.at(-1).id).toBe('__state__');
  });

  it('an error line ends the command with its message and code', async () => {
    const agentId = String(await agent(false));
    const asked = await plinth(['chat', 'ask', 'Hi', '--agent', agentId, '--external-id', 'ann'], { env: env() });
    expect(asked.code).toBe(1);
    expect(asked.stderr).toMatch(/The chat is not configured: agent \d+ has no LLM endpoint.*\(chat_not_configured\)/);
    const usage = await plinth(['chat', 'ask', 'Hi'], { env: env() });
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringMatching(/exactly one of --agent and --deployment/)]);
  });
});
