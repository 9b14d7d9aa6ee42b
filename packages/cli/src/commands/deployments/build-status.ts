import { defineVerb } from '../../core/define.js';
import { CliError, UsageError } from '../../core/errors.js';
import type { Response } from '../../core/http.js';
import { id } from '../../core/rest.js';
import { errorLine, statusLine, TERMINAL, type BuildBody } from './build-lines.js';

export const buildStatus = defineVerb({
  name: 'build-status',
  summary: "Show the build status of a branch's head; --wait polls until it is built, failed or cancelled (getDeploymentBuildStatus)",
  args: ['<deployment_id>'],
  options: [
    {
      flags: '--branch <name>',
      description: "Branch (default: your dev-mode branch if a session is open, else main; '' counts as omitted)",
    },
    { flags: '--wait', description: 'Poll until built, failed, cancelled or dev_mode; exit 1 on failed or cancelled' },
    { flags: '--interval <seconds>', description: 'Seconds between polls with --wait (default 2)' },
  ],
  examples: ['plinth deployments build-status 12 --branch main --wait'],
  async run(f, [deploymentId], opts) {
    const path = `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/build-status`;
    // Section 4.8 rule 4: with --wait the branch must stay the same while polling, so it must be named.
    if (opts.wait && opts.branch === '') throw new UsageError("--branch '' cannot be used with --wait: name the branch to wait for");
    const interval = opts.interval === undefined ? 2 : seconds(opts.interval);
    const client = await f.client();
    const fetchStatus = () => client.request<BuildBody>('GET', path, { query: { branch: opts.branch } });
    let response: Response<BuildBody> = await fetchStatus();
    if (opts.wait) {
      let last = '';
      for (;;) {
        const line = statusLine(response.data);
        if (line !== last) f.output.notice(line);
        last = line;
        if (TERMINAL.has(response.data.status)) break;
        await f.io.wait(interval * 1000);
        response = await fetchStatus();
      }
    }
    if (f.output.json) f.output.raw(response);
    else f.output.data(statusLine(response.data));
    const build = response.data;
    if (opts.wait && (build.status === 'failed' || build.status === 'cancelled')) {
      for (const error of build.errors) f.output.notice(errorLine(error));
      throw new CliError(`Build ${build.buildId} of ${build.branchName} ${build.status === 'failed' ? 'failed' : 'was cancelled'}`);
    }
  },
});

function seconds(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    throw new UsageError(`--interval must be a positive number of seconds, got "${value}"`);
  return Number(value);
}
