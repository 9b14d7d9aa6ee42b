import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { NetworkError } from '../../core/errors.js';
import { id } from '../../core/rest.js';
import { formatLine, type LogLine } from './line.js';

export const verb = defineVerb({
  name: 'logs',
  summary: "Show or follow a deployment's build logs (getDeploymentLogs)",
  description:
    'Prints the newest 200 lines, oldest first, as `time  source/container  [level] message`; --json prints one JSON object per line.\n' +
    'With --follow, keeps printing new lines as they are written until interrupted (Ctrl-C ends it normally).',
  args: ['<deployment_id>'],
  options: [
    {
      flags: '--source <source>',
      description: 'Only production (shared branches) or dev (dev-mode branches) lines',
      choices: ['production', 'dev'],
    },
    { flags: '--pod <pod>', description: 'Only the lines of this pod (server process)' },
    { flags: '-c, --container <name>', description: 'Only the lines of this container (builder for builds)' },
    { flags: '--follow', description: 'Keep printing new lines until interrupted' },
  ],
  examples: ['plinth logs 42 --source production', 'plinth logs 42 --follow --json'],
  async run(f, [deploymentId], opts) {
    const path = `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/logs`;
    const query = { source: opts.source, pod: opts.pod, container: opts.container };
    const client = await f.client();
    const print = (line: LogLine) => f.output.data(formatLine(line, f.output.json));
    if (!opts.follow) {
      const { data } = await client.request<Ok<'/api/v1/deployments/{deploymentId}/logs', 'get'>>('GET', path, { query });
      if (data.items.length === 0 && !f.output.json) f.output.notice('No results');
      return data.items.forEach(print);
    }
    const interrupted = f.io.interrupted?.() ?? new AbortController().signal;
    const lines = await client.lines(path, { query: { ...query, follow: true }, signal: interrupted });
    for await (const text of lines) {
      // Empty lines are the server's heartbeats.
      if (text.trim() !== '') print(JSON.parse(text) as LogLine);
    }
    // Only an interrupt ends a follow well; the server ending it (a restart) is worth saying.
    if (!interrupted.aborted) throw new NetworkError('The server ended the log stream', 'Run the command again to keep following.');
  },
});
