import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { RESOURCE_OPTIONS, resourceOf } from './resource.js';

type Policies = Ok<'/api/v1/resource-policies', 'get'>;
type SourceFolder = Policies['inheritedUserPolicies'][number]['sourceFolder'];

/** Where an inherited policy comes from: its folder (or a dashboard's workbook), the deployment, or the account. */
function origin(source: SourceFolder | null | undefined, onAccount: boolean): string {
  if (source) return `${source.type === 'WORKBOOK' ? 'workbook' : 'folder'} ${source.id} (${source.name})`;
  return onAccount ? 'Global' : 'deployment';
}

export const list = defineVerb({
  name: 'list',
  aliases: ['ls', 'get'],
  summary: 'List the resource policies on a deployment, the account or workspace content (getPolicies)',
  description:
    "Includes the policies the resource inherits: a deployment's from the account (Global); a folder's, report's, workbook's or dashboard's from every folder above it (the From column names the folder), its deployment and the account.",
  options: RESOURCE_OPTIONS,
  examples: [
    'plinth policies list --deployment 3',
    'plinth policies list --global',
    'plinth policies get --resource-type Folder --resource-id 12',
  ],
  async run(f, _args, opts) {
    const resource = resourceOf(opts);
    const client = await f.client();
    const response = await client.request<Policies>('GET', '/api/v1/resource-policies', { query: { ...resource } });
    if (f.output.json) return f.output.raw(response);
    const p = response.data;
    // The reference's shape says "no folder" alike for the deployment's and the account's policies:
    // the account's own list tells them apart (a deployment inherits from nothing else).
    const account =
      resource.resourceType === 'Deployment'
        ? null
        : resource.resourceType === 'Global'
          ? p
          : (await client.request<Policies>('GET', '/api/v1/resource-policies', { query: { resourceType: 'Global', resourceId: 0 } })).data;
    const global = new Set([
      ...(account?.userPolicies ?? []).map((r) => `user ${r.userId} ${r.action}`),
      ...(account?.groupPolicies ?? []).map((r) => `group ${r.groupId} ${r.action}`),
    ]);
    const from = (subject: string, action: string, source?: SourceFolder | null) =>
      origin(source, resource.resourceType === 'Deployment' || global.has(`${subject} ${action}`));
    const rows = [
      ...p.userPolicies.map((r) => ({ subject: `user ${r.userId}`, action: r.action, from: 'this resource' })),
      ...p.groupPolicies.map((r) => ({ subject: `group ${r.groupId}`, action: r.action, from: 'this resource' })),
      ...p.inheritedUserPolicies.map((r) => ({
        subject: `user ${r.userId}`,
        action: r.action,
        from: from(`user ${r.userId}`, r.action, r.sourceFolder),
      })),
      ...p.inheritedGroupPolicies.map((r) => ({
        subject: `group ${r.groupId}`,
        action: r.action,
        from: from(`group ${r.groupId}`, r.action, r.sourceFolder),
      })),
    ];
    f.output.list({ ...response, data: rows }, [
      ['Subject', 'subject'],
      ['Action', 'action'],
      ['From', 'from'],
    ]);
  },
});
