import { URN } from './errors.js';

/** RFC 7643 §7 attribute characteristics; `/Schemas` is generated from these, as are filter rules. */
export interface AttributeDef {
  name: string;
  type: 'string' | 'boolean' | 'dateTime' | 'reference' | 'complex';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: AttributeDef[];
  canonicalValues?: string[];
  referenceTypes?: string[];
}

type Partial_ = Pick<AttributeDef, 'name' | 'description'> & Partial<AttributeDef>;

function attr(def: Partial_): AttributeDef {
  return {
    type: 'string', multiValued: false, required: false, caseExact: false,
    mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...def,
  };
}

export const userAttributes: AttributeDef[] = [
  attr({
    name: 'userName', required: true, uniqueness: 'server',
    description: 'Unique identifier of the user, typically the e-mail address; unique case-insensitively within the account.',
  }),
  attr({
    name: 'name', type: 'complex', description: 'The components of the user\'s name.',
    subAttributes: [
      attr({ name: 'givenName', description: 'Given (first) name.' }),
      attr({ name: 'familyName', description: 'Family (last) name.' }),
      attr({ name: 'formatted', mutability: 'readOnly', description: 'Given and family name joined by a space; derived.' }),
    ],
  }),
  attr({ name: 'displayName', description: 'Name of the user suitable for display.' }),
  attr({
    name: 'emails', type: 'complex', multiValued: true,
    description: 'E-mail addresses; at most one is primary. When none are stored, userName is presented as the primary work address.',
    subAttributes: [
      attr({ name: 'value', required: true, description: 'The address.' }),
      attr({ name: 'display', description: 'A human-readable form of the address.' }),
      attr({ name: 'type', canonicalValues: ['work', 'home', 'other'], description: 'What the address is for.' }),
      attr({ name: 'primary', type: 'boolean', description: 'The preferred address; making one primary clears the others.' }),
    ],
  }),
  attr({
    name: 'active', type: 'boolean',
    description: 'False deactivates the user: their API keys and access tokens stop working until it is true again.',
  }),
];

export const groupAttributes: AttributeDef[] = [
  attr({ name: 'displayName', required: true, uniqueness: 'server', description: 'Name of the group; unique within the account.' }),
  attr({
    name: 'members', type: 'complex', multiValued: true, description: 'Users in the group. Nested groups are not supported.',
    subAttributes: [
      attr({ name: 'value', mutability: 'immutable', caseExact: true, description: 'The member user\'s id.' }),
      attr({ name: '$ref', type: 'reference', mutability: 'immutable', referenceTypes: ['User'], description: 'URI of the member user.' }),
      attr({ name: 'display', mutability: 'readOnly', description: 'The member user\'s displayName, or userName when none.' }),
      attr({ name: 'type', mutability: 'immutable', canonicalValues: ['User'], description: 'Always "User".' }),
    ],
  }),
];

/** RFC 7643 §3.1 common attributes; not part of any schema's attribute list. */
export const commonAttributes: AttributeDef[] = [
  attr({ name: 'id', caseExact: true, mutability: 'readOnly', returned: 'always', uniqueness: 'global', description: 'Assigned by the service provider.' }),
  attr({ name: 'externalId', caseExact: true, description: 'Identifier of the resource as defined by the provisioning client.' }),
  attr({
    name: 'meta', type: 'complex', mutability: 'readOnly', description: 'Resource metadata.',
    subAttributes: [
      attr({ name: 'resourceType', caseExact: true, mutability: 'readOnly', description: 'User or Group.' }),
      attr({ name: 'created', type: 'dateTime', mutability: 'readOnly', description: 'When the resource was created.' }),
      attr({ name: 'lastModified', type: 'dateTime', mutability: 'readOnly', description: 'When the resource last changed.' }),
      attr({ name: 'location', type: 'reference', caseExact: true, mutability: 'readOnly', description: 'URI of the resource.' }),
      attr({ name: 'version', caseExact: true, mutability: 'readOnly', description: 'Weak entity tag of the resource.' }),
    ],
  }),
];

export interface ResourceTypeDef {
  name: 'User' | 'Group';
  endpoint: string;
  schema: string;
  schemaName: string;
  description: string;
  attributes: AttributeDef[];
}

export const resourceTypes: Record<'User' | 'Group', ResourceTypeDef> = {
  User: {
    name: 'User', endpoint: '/Users', schema: URN.user, schemaName: 'User',
    description: 'The account\'s internal users.', attributes: userAttributes,
  },
  Group: {
    name: 'Group', endpoint: '/Groups', schema: URN.group, schemaName: 'Group',
    description: 'The account\'s tenant-wide groups.', attributes: groupAttributes,
  },
};

/**
 * Resolves an attribute path (`name.givenName`, `urn:…:User:userName`) of a resource type to its
 * definitions, case-insensitively (RFC 7643 §2.1). Undefined when the path names nothing.
 */
export function resolveAttribute(type: ResourceTypeDef, path: string): { top: AttributeDef; sub?: AttributeDef } | undefined {
  let rest = path;
  const prefix = `${type.schema}:`;
  if (rest.toLowerCase().startsWith(prefix.toLowerCase())) rest = rest.slice(prefix.length);
  const [topName, subName, ...extra] = rest.split('.');
  if (extra.length > 0 || !topName) return undefined;
  const top = findAttr([...commonAttributes, ...type.attributes], topName);
  if (!top) return undefined;
  if (subName === undefined) return { top };
  const sub = top.subAttributes && findAttr(top.subAttributes, subName);
  return sub ? { top, sub } : undefined;
}

export function findAttr(list: AttributeDef[], name: string): AttributeDef | undefined {
  const lower = name.toLowerCase();
  return list.find((a) => a.name.toLowerCase() === lower);
}
