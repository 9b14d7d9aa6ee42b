import { searchVerb } from './client.js';

/** RFC 7644 §3.4.3: a search over every resource type from the service provider's root. */
export const search = searchVerb({
  summary: 'Search users and groups together (POST /api/scim/v2/.search)',
  description: 'Searches every resource type at once. To search one type, use `plinth scim users search` or `plinth scim groups search`.',
  path: '/api/scim/v2/.search',
  columns: [
    ['ID', 'id'],
    ['Type', 'meta.resourceType'],
    ['Name', (r) => r.userName ?? r.displayName],
    ['External ID', 'externalId'],
  ],
  examples: ["plinth scim search --filter 'externalId pr' --count 50"],
});
