import type { Static } from '@sinclair/typebox';
import type { AgentSkill } from './schemas.js';

const QUERY_INPUT = JSON.stringify({
  type: 'object',
  description: "A query in Cube's query format over one of the agent's views.",
  properties: {
    measures: { type: 'array', items: { type: 'string' } },
    dimensions: { type: 'array', items: { type: 'string' } },
    filters: { type: 'array', items: { type: 'object' } },
    timeDimensions: { type: 'array', items: { type: 'object' } },
    order: { type: 'object' },
    limit: { type: 'integer', minimum: 1 },
  },
  additionalProperties: false,
});

/**
 * What an agent of a deployment can do here, and nothing it cannot: Plinth runs no agent itself,
 * it stores agents' configuration and serves the data an agent reads. An agent (run by the
 * account's OpenAI-compatible LLM endpoint and whatever drives it) reaches the deployment only
 * through the data API over its `accessibleViews`, as the user who asks, so these four skills are
 * the whole set: describe the views, then plan or run a query on them. They depend on neither
 * the branch nor a space, which the reference's query parameters name.
 */
export const AGENT_SKILLS: ReadonlyArray<Static<typeof AgentSkill>> = [
  {
    name: 'list_views',
    title: 'List views',
    description: "The views the agent may use (its accessibleViews) that the asking user's access policies let them see.",
    input: null,
  },
  {
    name: 'describe_view',
    title: 'Describe a view',
    description: "A view's measures, dimensions and segments with their titles, types and descriptions, as the user may see them.",
    input: JSON.stringify({ type: 'object', properties: { view: { type: 'string' } }, required: ['view'], additionalProperties: false }),
  },
  {
    name: 'generate_sql',
    title: 'Show the SQL of a query',
    description: 'The SQL a query would run on the warehouse, without running it.',
    input: QUERY_INPUT,
  },
  {
    name: 'query_data',
    title: 'Query data',
    description:
      "Runs a query through the deployment's data API as the asking user: their groups and attribute values feed the model's access policies.",
    input: QUERY_INPUT,
  },
];
