import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';

interface Skills {
  skills: Array<{ name: string; title: string; description: string; input: string | null }>;
}

export const skills = defineVerb({
  name: 'skills',
  summary: 'List what an agent of a deployment can do (getAgentSkills)',
  args: ['<deployment_id>'],
  examples: ['plinth agents skills 3', 'plinth agents skills 3 --json'],
  async run(f, [deploymentId]) {
    const client = await f.client();
    const response = await client.request<Skills>('GET', `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/agent-skills`);
    if (f.output.json) return f.output.raw(response);
    f.output.list({ ...response, data: response.data.skills }, [
      ['Name', 'name'],
      ['Title', 'title'],
      ['Description', 'description'],
    ]);
  },
});
