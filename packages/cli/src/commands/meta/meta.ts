import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';
import { dataApiToken } from '../../core/data-token.js';

/** A cube or view as getMetadata answers it; its members are Cube's, which the spec leaves open. */
type MetaCube = Ok<'/api/v1/meta', 'post'>['cubes'][number];

/** One block per cube or view: its kind and name, then one line per member (kind, name, type). */
export function metaLines(cubes: readonly MetaCube[]): string {
  return cubes
    .map((cube) => {
      const members = [
        ...cube.measures.map((m) => ['measure', String(m.name), String(m.type)]),
        ...cube.dimensions.map((m) => ['dimension', String(m.name), String(m.type)]),
        ...cube.segments.map((m) => ['segment', String(m.name), '']),
      ];
      const width = Math.max(0, ...members.map(([, name]) => name!.length));
      return [
        `${cube.type} ${cube.name}`,
        ...members.map(([kind, name, type]) => `  ${kind!.padEnd(9)}  ${name!.padEnd(width)}  ${type}`.trimEnd()),
      ].join('\n');
    })
    .join('\n\n');
}

export const verb = defineVerb({
  name: 'meta',
  summary: "Print the cubes, views and members of a deployment's built data model (metaV1, with a data API token it mints)",
  args: ['<deployment_id>'],
  options: [{ flags: '--branch <name>', description: 'A dev branch or enabled staging branch instead of the deploy branch' }],
  examples: ['plinth meta 12', 'plinth meta 12 --branch staging --json'],
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const deployment = id(deploymentId, 'deployment_id');
    // The data API takes only data API tokens: mint a short-lived one for the branch with the caller's credential.
    const { token, base } = await dataApiToken(client, deployment, typeof opts.branch === 'string' ? opts.branch : undefined);
    // The data API's meta answers the cubes getMetadata does, in Cube's format, which its schema leaves open.
    const response = await client.request<{ cubes: MetaCube[] }>('GET', `${base}/meta`, {
      anonymous: true,
      headers: { authorization: token },
    });
    if (f.output.json) f.output.raw(response);
    else f.output.data(metaLines(response.data.cubes));
  },
});
