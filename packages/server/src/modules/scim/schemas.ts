import { Type } from '@sinclair/typebox';

/**
 * Component schemas of the SCIM surface. Resources stay open to extension attributes (RFC 7643
 * §3.3: a client may send schemas this server does not implement); only the attributes it does
 * implement are typed.
 */
export const ScimError = Type.Object(
  {
    schemas: Type.Array(Type.String(), { description: 'Contains urn:ietf:params:scim:api:messages:2.0:Error.' }),
    status: Type.String({ description: 'The HTTP status, as a string.' }),
    scimType: Type.Optional(Type.String({ description: 'RFC 7644 §3.12 error type, where one applies.' })),
    detail: Type.String({ description: 'What went wrong, for a person.' }),
  },
  { $id: 'ScimError' },
);

const open = { additionalProperties: true } as const;
const Schemas = Type.Array(Type.String(), { description: 'Schema URNs of the resource.' });

const Meta = Type.Object(
  {
    resourceType: Type.Optional(Type.String()),
    created: Type.Optional(Type.String({ format: 'date-time' })),
    lastModified: Type.Optional(Type.String({ format: 'date-time' })),
    location: Type.Optional(Type.String()),
    version: Type.Optional(Type.String({ description: 'Weak ETag, e.g. W/"3".' })),
  },
  { ...open, description: 'Read-only.' },
);

const Str = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));
const BooleanLike = Type.Union([Type.Boolean(), Type.String({ description: '"True" or "False" in any case, as Entra ID sends them.' })]);
const multiValued = (description: string) =>
  Type.Optional(
    Type.Array(Type.Object({ value: Str(), display: Str(), type: Str(), primary: Type.Optional(BooleanLike) }, open), { description }),
  );

export const ScimEnterpriseUser = Type.Object(
  {
    employeeNumber: Str(),
    costCenter: Str(),
    organization: Str(),
    division: Str(),
    department: Str(),
    manager: Type.Optional(
      Type.Union([
        // `$ref` too, but a property of that name would read as a JSON Schema reference.
        Type.Object({ value: Str("The manager's id."), displayName: Str() }, { ...open, description: "Also `$ref`, the manager's URI." }),
        Type.String({ description: "The manager's id alone, as Entra ID sends it." }),
      ]),
    ),
  },
  { ...open, description: 'RFC 7643 §4.3 enterprise User extension.' },
);

export const ScimUser = Type.Object(
  {
    schemas: Schemas,
    id: Type.Optional(Type.String({ description: 'Assigned by the server. Read-only.' })),
    externalId: Str(),
    userName: Type.Optional(
      Type.String({
        description: 'Any non-empty string, unique case-insensitively in the account (an e-mail address, a mailNickname, an employee id).',
      }),
    ),
    name: Type.Optional(
      Type.Object(
        {
          formatted: Str(),
          familyName: Str(),
          givenName: Str(),
          middleName: Str(),
          honorificPrefix: Str(),
          honorificSuffix: Str(),
        },
        open,
      ),
    ),
    displayName: Str(),
    nickName: Str(),
    profileUrl: Str(),
    title: Str(),
    userType: Str(),
    preferredLanguage: Str(),
    locale: Str(),
    timezone: Str(),
    active: Type.Optional(
      Type.Union([Type.Boolean(), Type.String()], {
        description: 'False deactivates the user and stops their API keys and tokens. A boolean, or "True"/"False" in any case.',
      }),
    ),
    emails: multiValued("Stored as sent. The primary address (else the first) is the user's sign-in address."),
    phoneNumbers: multiValued('Stored as sent.'),
    ims: multiValued('Stored as sent.'),
    photos: multiValued('Stored as sent.'),
    addresses: Type.Optional(Type.Array(Type.Object({}, open), { description: 'Stored as sent.' })),
    entitlements: multiValued('Stored as sent.'),
    roles: multiValued("Stored as sent; they do not change the user's Plinth role."),
    x509Certificates: multiValued('Stored as sent.'),
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': Type.Optional(ScimEnterpriseUser),
    meta: Type.Optional(Meta),
  },
  {
    ...open,
    $id: 'ScimUser',
    description: 'RFC 7643 §4.1 core User (section 2.2) with the enterprise extension. Attributes of no supported schema are refused.',
  },
);

const Member = Type.Object(
  {
    value: Type.String({ description: "The member user's id." }),
    display: Type.Optional(Type.String()),
    type: Type.Optional(Type.String()),
  },
  { ...open, description: "A member; responses also carry `$ref`, the member's URI." },
);

export const ScimGroup = Type.Object(
  {
    schemas: Schemas,
    id: Type.Optional(Type.String()),
    externalId: Type.Optional(Type.String()),
    displayName: Type.Optional(Type.String({ description: 'Unique within the account.' })),
    members: Type.Optional(Type.Array(Member)),
    meta: Type.Optional(Meta),
  },
  { ...open, $id: 'ScimGroup', description: 'RFC 7643 §4.2 Group: a tenant-wide group of internal users.' },
);

function listOf(items: Array<{ $id?: string }>, $id: string) {
  const refs = items.map((item) => Type.Ref(item.$id!));
  return Type.Object(
    {
      schemas: Schemas,
      totalResults: Type.Integer(),
      itemsPerPage: Type.Integer(),
      startIndex: Type.Integer(),
      Resources: Type.Array(refs.length === 1 ? refs[0]! : Type.Union(refs)),
    },
    { $id, description: 'RFC 7644 §3.4.2 ListResponse.' },
  );
}

export const ScimUserList = listOf([ScimUser], 'ScimUserList');
export const ScimGroupList = listOf([ScimGroup], 'ScimGroupList');
export const ScimResourceList = listOf([ScimUser, ScimGroup], 'ScimResourceList');

export const ScimPatchOp = Type.Object(
  {
    schemas: Type.Optional(Schemas),
    Operations: Type.Array(
      Type.Object(
        {
          op: Type.String({ description: 'add, replace or remove, in any case.' }),
          path: Type.Optional(Type.String()),
          value: Type.Optional(Type.Unknown()),
        },
        open,
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { ...open, $id: 'ScimPatchOp', description: 'RFC 7644 §3.5.2 PatchOp.' },
);

const AttributeList = Type.Union([Type.Array(Type.String()), Type.String()]);

export const ScimSearchRequest = Type.Object(
  {
    schemas: Type.Optional(Schemas),
    attributes: Type.Optional(AttributeList),
    excludedAttributes: Type.Optional(AttributeList),
    filter: Type.Optional(Type.String()),
    sortBy: Type.Optional(Type.String()),
    sortOrder: Type.Optional(Type.String()),
    startIndex: Type.Optional(Type.Integer()),
    count: Type.Optional(Type.Integer()),
  },
  { ...open, $id: 'ScimSearchRequest', description: 'RFC 7644 §3.4.3 SearchRequest.' },
);

export const ListQuery = Type.Object({
  filter: Type.Optional(Type.String({ description: 'RFC 7644 §3.4.2.2 filter, e.g. userName eq "jane@example.com".' })),
  startIndex: Type.Optional(Type.Integer({ description: '1-based index of the first result (default 1).' })),
  count: Type.Optional(Type.Integer({ description: 'Results per page (default 100, at most 1000); 0 returns only totalResults.' })),
  sortBy: Type.Optional(Type.String()),
  sortOrder: Type.Optional(Type.String({ description: 'ascending (default) or descending.' })),
  attributes: Type.Optional(Type.String({ description: 'Comma-separated attributes to return.' })),
  excludedAttributes: Type.Optional(Type.String({ description: 'Comma-separated attributes to leave out.' })),
});

export const ProjectionQuery = Type.Object({
  attributes: Type.Optional(Type.String()),
  excludedAttributes: Type.Optional(Type.String()),
});

export const ResourceParams = Type.Object({ id: Type.String({ description: 'SCIM id of the resource (a UUID).' }) });

export const ScimHeaders = Type.Object({
  'if-match': Type.Optional(Type.String({ description: 'Write only if the resource still has this version (ETag).' })),
});

export const ScimGetHeaders = Type.Object({
  'if-none-match': Type.Optional(Type.String({ description: 'Answer 304 if the resource still has this version (ETag).' })),
});
