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

export const ScimUser = Type.Object(
  {
    schemas: Schemas,
    id: Type.Optional(Type.String({ description: 'Assigned by the server. Read-only.' })),
    externalId: Type.Optional(Type.String()),
    userName: Type.Optional(Type.String({ description: 'Unique case-insensitively; the internal user\'s e-mail address.' })),
    name: Type.Optional(
      Type.Object(
        { givenName: Type.Optional(Type.String()), familyName: Type.Optional(Type.String()), formatted: Type.Optional(Type.String()) },
        open,
      ),
    ),
    displayName: Type.Optional(Type.String()),
    emails: Type.Optional(
      Type.Array(
        Type.Object(
          {
            value: Type.Optional(Type.String()),
            type: Type.Optional(Type.String({ description: 'work, home or other.' })),
            primary: Type.Optional(Type.Boolean({ description: 'At most one address is primary.' })),
            display: Type.Optional(Type.String()),
          },
          open,
        ),
      ),
    ),
    active: Type.Optional(Type.Boolean({ description: 'False deactivates the user and stops their API keys and tokens.' })),
    meta: Type.Optional(Meta),
  },
  { ...open, $id: 'ScimUser', description: 'RFC 7643 §4.1 core User (section 2.2).' },
);

const Member = Type.Object(
  {
    value: Type.String({ description: 'The member user\'s id.' }),
    display: Type.Optional(Type.String()),
    type: Type.Optional(Type.String()),
  },
  { ...open, description: 'A member; responses also carry `$ref`, the member\'s URI.' },
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
