import { URN } from './errors.js';

/** RFC 7643 §7 attribute characteristics; `/Schemas` is generated from these, as are filter rules. */
export interface AttributeDef {
  name: string;
  type: 'string' | 'boolean' | 'dateTime' | 'reference' | 'complex' | 'binary';
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
    type: 'string',
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...def,
  };
}

/** The sub-attributes RFC 7643 §2.4 gives every multi-valued attribute. */
function multi(
  name: string,
  description: string,
  types: string[],
  value: Partial_ = { name: 'value', description: 'The value.' },
): AttributeDef {
  return attr({
    name,
    type: 'complex',
    multiValued: true,
    description,
    subAttributes: [
      attr({ ...value, required: true }),
      attr({ name: 'display', description: 'A human-readable form of the value.' }),
      attr({ name: 'type', canonicalValues: types, description: 'What the value is for.' }),
      attr({ name: 'primary', type: 'boolean', description: 'The preferred item; making one primary clears the others.' }),
    ],
  });
}

export const userAttributes: AttributeDef[] = [
  attr({
    name: 'userName',
    required: true,
    uniqueness: 'server',
    description:
      'Unique identifier of the user, any non-empty string (an e-mail address, a mailNickname, an employee id); unique case-insensitively within the account.',
  }),
  attr({
    name: 'name',
    type: 'complex',
    description: "The components of the user's name, stored as sent.",
    subAttributes: [
      attr({ name: 'formatted', description: 'The full name, as the client formats it.' }),
      attr({ name: 'familyName', description: 'Family (last) name.' }),
      attr({ name: 'givenName', description: 'Given (first) name.' }),
      attr({ name: 'middleName', description: 'Middle name(s).' }),
      attr({ name: 'honorificPrefix', description: 'e.g. Ms.' }),
      attr({ name: 'honorificSuffix', description: 'e.g. III.' }),
    ],
  }),
  attr({ name: 'displayName', description: 'Name of the user suitable for display.' }),
  attr({ name: 'nickName', description: 'Casual name of the user.' }),
  attr({ name: 'profileUrl', type: 'reference', referenceTypes: ['external'], description: "URI of the user's online profile." }),
  attr({ name: 'title', description: "The user's title, e.g. Vice President." }),
  attr({ name: 'userType', description: 'The relationship to the organisation, e.g. Employee or Contractor.' }),
  attr({ name: 'preferredLanguage', description: 'Preferred written or spoken language, e.g. en-US.' }),
  attr({ name: 'locale', description: 'Default location for localising, e.g. en-US.' }),
  attr({ name: 'timezone', description: 'IANA time zone, e.g. Europe/Paris.' }),
  attr({
    name: 'active',
    type: 'boolean',
    description: 'False deactivates the user: their API keys and access tokens stop working until it is true again. Cannot be removed.',
  }),
  attr({
    name: 'password',
    mutability: 'writeOnly',
    returned: 'never',
    description:
      'Not supported (changePassword.supported is false): a request that sets it is refused. Users set their password from an invite.',
  }),
  multi(
    'emails',
    "E-mail addresses, stored as sent; at most one is primary. The primary (else the first) is the user's sign-in address; without any, userName is when it is an address.",
    ['work', 'home', 'other'],
    { name: 'value', description: 'The address.' },
  ),
  multi('phoneNumbers', 'Phone numbers, stored as sent.', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
  multi('ims', 'Instant messaging addresses, stored as sent.', ['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq', 'yahoo']),
  multi('photos', 'URIs of photos of the user.', ['photo', 'thumbnail'], {
    name: 'value',
    type: 'reference',
    referenceTypes: ['external'],
    description: 'URI of the photo.',
  }),
  attr({
    name: 'addresses',
    type: 'complex',
    multiValued: true,
    description: 'Physical mailing addresses, stored as sent.',
    subAttributes: [
      attr({ name: 'formatted', description: 'The full address, formatted for display.' }),
      attr({ name: 'streetAddress', description: 'Street, house number, etc.' }),
      attr({ name: 'locality', description: 'City.' }),
      attr({ name: 'region', description: 'State or region.' }),
      attr({ name: 'postalCode', description: 'Postal code.' }),
      attr({ name: 'country', description: 'ISO 3166-1 alpha-2 country code.' }),
      attr({ name: 'type', canonicalValues: ['work', 'home', 'other'], description: 'What the address is for.' }),
      attr({ name: 'primary', type: 'boolean', description: 'The preferred address.' }),
    ],
  }),
  attr({
    name: 'groups',
    type: 'complex',
    multiValued: true,
    mutability: 'readOnly',
    returned: 'request',
    description:
      'Read-only (RFC 7643 §4.1.2), returned when `attributes` names it; a request that restates it has it ignored. Memberships change through /Groups.',
    subAttributes: [
      attr({ name: 'value', mutability: 'readOnly', description: "The group's id." }),
      attr({ name: '$ref', type: 'reference', mutability: 'readOnly', referenceTypes: ['Group'], description: 'URI of the group.' }),
      attr({ name: 'display', mutability: 'readOnly', description: "The group's displayName." }),
      attr({ name: 'type', mutability: 'readOnly', canonicalValues: ['direct'], description: 'direct.' }),
    ],
  }),
  multi('entitlements', 'Entitlements of the user, stored as sent.', []),
  multi('roles', "Roles of the user, stored as sent; they do not change the user's Plinth role.", []),
  multi('x509Certificates', 'X.509 certificates (base64 DER), stored as sent.', [], {
    name: 'value',
    type: 'binary',
    description: 'The certificate, base64-encoded DER.',
  }),
];

/** RFC 7643 §4.3 enterprise User extension. */
export const enterpriseUserAttributes: AttributeDef[] = [
  attr({ name: 'employeeNumber', description: 'Identifier of the user assigned by the organisation.' }),
  attr({ name: 'costCenter', description: 'Name of a cost center.' }),
  attr({ name: 'organization', description: 'Name of an organisation.' }),
  attr({ name: 'division', description: 'Name of a division.' }),
  attr({ name: 'department', description: 'Name of a department.' }),
  attr({
    name: 'manager',
    type: 'complex',
    description: "The user's manager. A bare string (as Entra ID sends) is taken as its value.",
    subAttributes: [
      attr({ name: 'value', description: "The id of the manager's SCIM resource." }),
      attr({ name: '$ref', type: 'reference', referenceTypes: ['User'], description: "URI of the manager's resource." }),
      attr({ name: 'displayName', description: "The manager's displayName." }),
    ],
  }),
];

export const groupAttributes: AttributeDef[] = [
  attr({ name: 'displayName', required: true, uniqueness: 'server', description: 'Name of the group; unique within the account.' }),
  attr({
    name: 'members',
    type: 'complex',
    multiValued: true,
    description: 'Users in the group. Nested groups are not supported.',
    subAttributes: [
      attr({ name: 'value', mutability: 'immutable', caseExact: true, description: "The member user's id." }),
      attr({ name: '$ref', type: 'reference', mutability: 'immutable', referenceTypes: ['User'], description: 'URI of the member user.' }),
      attr({ name: 'display', mutability: 'readOnly', description: "The member user's displayName, or userName when none." }),
      attr({ name: 'type', mutability: 'immutable', canonicalValues: ['User'], description: 'Always "User".' }),
    ],
  }),
];

/** RFC 7643 §3.1 common attributes; not part of any schema's attribute list. */
export const commonAttributes: AttributeDef[] = [
  attr({
    name: 'id',
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'global',
    description: 'Assigned by the service provider.',
  }),
  attr({ name: 'externalId', caseExact: true, description: 'Identifier of the resource as defined by the provisioning client.' }),
  attr({
    name: 'meta',
    type: 'complex',
    mutability: 'readOnly',
    description: 'Resource metadata.',
    subAttributes: [
      attr({ name: 'resourceType', caseExact: true, mutability: 'readOnly', description: 'User or Group.' }),
      attr({ name: 'created', type: 'dateTime', mutability: 'readOnly', description: 'When the resource was created.' }),
      attr({ name: 'lastModified', type: 'dateTime', mutability: 'readOnly', description: 'When the resource last changed.' }),
      attr({ name: 'location', type: 'reference', caseExact: true, mutability: 'readOnly', description: 'URI of the resource.' }),
      attr({ name: 'version', caseExact: true, mutability: 'readOnly', description: 'Weak entity tag of the resource.' }),
    ],
  }),
];

export interface SchemaExtensionDef {
  schema: string;
  schemaName: string;
  description: string;
  required: boolean;
  attributes: AttributeDef[];
}

export interface ResourceTypeDef {
  name: 'User' | 'Group';
  endpoint: string;
  schema: string;
  schemaName: string;
  description: string;
  attributes: AttributeDef[];
  extensions: SchemaExtensionDef[];
}

export const enterpriseUser: SchemaExtensionDef = {
  schema: URN.enterpriseUser,
  schemaName: 'EnterpriseUser',
  description: 'RFC 7643 §4.3 enterprise User extension.',
  required: false,
  attributes: enterpriseUserAttributes,
};

export const resourceTypes: Record<'User' | 'Group', ResourceTypeDef> = {
  User: {
    name: 'User',
    endpoint: '/Users',
    schema: URN.user,
    schemaName: 'User',
    description: "The account's internal users.",
    attributes: userAttributes,
    extensions: [enterpriseUser],
  },
  Group: {
    name: 'Group',
    endpoint: '/Groups',
    schema: URN.group,
    schemaName: 'Group',
    description: "The account's tenant-wide groups.",
    attributes: groupAttributes,
    extensions: [],
  },
};

/**
 * Resolves an attribute path (`name.givenName`, `urn:…:User:userName`, `urn:…:enterprise:2.0:User:manager.value`)
 * of a resource type to its definitions, case-insensitively (RFC 7643 §2.1). An extension's
 * attributes are reached only through its URN. Undefined when the path names nothing.
 */
export function resolveAttribute(
  type: ResourceTypeDef,
  path: string,
): { top: AttributeDef; sub?: AttributeDef; extension?: SchemaExtensionDef } | undefined {
  const { extension, rest } = splitSchema(type, path);
  if (rest === undefined) return undefined;
  const [topName, subName, ...more] = rest.split('.');
  if (more.length > 0 || !topName) return undefined;
  const top = findAttr(extension ? extension.attributes : [...commonAttributes, ...type.attributes], topName);
  if (!top) return undefined;
  const ext = extension ? { extension } : {};
  if (subName === undefined) return { top, ...ext };
  const sub = top.subAttributes && findAttr(top.subAttributes, subName);
  return sub ? { top, sub, ...ext } : undefined;
}

/**
 * Splits a schema URN off a path. `rest` is the attribute path after it ('' when the path is the
 * extension's URN alone), undefined when the path starts with a URN this type does not have.
 */
export function splitSchema(type: ResourceTypeDef, path: string): { extension?: SchemaExtensionDef; rest: string | undefined } {
  const lower = path.toLowerCase();
  for (const extension of type.extensions) {
    const urn = extension.schema.toLowerCase();
    if (lower === urn) return { extension, rest: '' };
    if (lower.startsWith(`${urn}:`)) return { extension, rest: path.slice(urn.length + 1) };
  }
  const core = `${type.schema}:`.toLowerCase();
  if (lower.startsWith(core)) return { rest: path.slice(core.length) };
  if (lower.startsWith('urn:')) return { rest: undefined };
  return { rest: path };
}

export function findAttr(list: AttributeDef[], name: string): AttributeDef | undefined {
  const lower = name.toLowerCase();
  return list.find((a) => a.name.toLowerCase() === lower);
}
