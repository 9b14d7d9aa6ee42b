import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';

export const skills = defineVerb({
  name: 'skills',
  summary: 'List what an agent of a deployment can do (getAgentSkills)',
  args: ['<deployment_id>'],
  examples: ['plinth agents skills 3', 'plinth agents skills 3 --json'],
  async run(f, [deploymentId]) {
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/agent-skills', 'get'>>(
      'GET',
      `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/agent-skills`,
    );
    if (f.output.json) return f.output.raw(response);
    f.output.list({ ...response, data: response.data.skills }, [
      ['Name', 'name'],
      ['Title', 'title'],
      ['Description', 'description'],
    ]);
  },
});
