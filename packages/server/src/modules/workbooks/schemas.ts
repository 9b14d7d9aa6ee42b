import { Type, type TSchema } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { PageInfo } from '../../http/pagination.js';
import { Dashboard, DashboardConfig } from './dashboard-schemas.js';

export const MAX_WORKBOOK_NAME = 255;
export const MAX_CALCULATED_FIELDS = 200;
export const CALCULATED_FIELD_TYPES = ['string', 'number', 'time', 'boolean'] as const;

const strict = { additionalProperties: false } as const;
const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Free = Type.Object({}, { additionalProperties: true });
const Name = Type.String({ minLength: 1, maxLength: MAX_WORKBOOK_NAME, description: 'Leading and trailing spaces are trimmed.' });
const FolderId = Type.Union([IntegerId, Type.Null()], { description: 'The folder it sits in; null for the root of the workspace.' });

/**
 * One calculated field (Plinth's shape; the reference leaves `calculatedFields` an open object):
 * a SQL expression over the workbook's data or a formula over its members, with its result type.
 */
export const CalculatedField = Type.Object(
  {
    sql: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000, description: 'A SQL expression; give this or `expression`.' })),
    expression: Type.Optional(
      Type.String({ minLength: 1, maxLength: 10_000, description: 'A formula over members, e.g. `orders.total / orders.count`.' }),
    ),
    type: StringEnum(CALCULATED_FIELD_TYPES, { description: 'The result type.' }),
    title: nullable(Type.String({ maxLength: 255 })),
    description: nullable(Type.String({ maxLength: 2000 })),
  },
  { ...strict, $id: 'CalculatedField' },
);

export const CalculatedFields = Type.Record(Type.String(), Type.Ref(CalculatedField), {
  $id: 'CalculatedFields',
  maxProperties: MAX_CALCULATED_FIELDS,
  description:
    'By name: a letter or underscore, then letters, digits and underscores (at most 64). Updating replaces the whole set; `{}` removes them all.',
});

export const Workbook = Type.Object(
  {
    id: Type.Integer(),
    deploymentId: Type.Integer(),
    folderId: Type.Union([Type.Integer(), Type.Null()]),
    name: Type.String(),
    type: StringEnum(['FOLDER', 'WORKBOOK', 'REPORT'] as const, { description: 'Always `WORKBOOK` here.' }),
    meta: Free,
    calculatedFields: Type.Ref(CalculatedFields),
    dashboardDraft: Type.Union([Type.Ref(DashboardConfig), Type.Null()]),
    dashboardPublished: Type.Union([Type.Ref(DashboardConfig), Type.Null()], { description: "The latest version's configuration." }),
    publishedDashboard: Type.Union([Type.Ref(Dashboard), Type.Null()]),
    isFavorite: Type.Union([Type.Boolean(), Type.Null()], { description: 'Not kept by Plinth: always null.' }),
    createdBy: Type.Union([Type.Integer(), Type.Null()]),
    userId: Type.Union([Type.Integer(), Type.Null()], { description: 'The owner: its creator.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Workbook' },
);

export const CreateWorkbookInput = Type.Object(
  {
    name: nullable(Name),
    folderId: Type.Optional(FolderId),
    meta: nullable(Free),
    calculatedFields: Type.Optional(Type.Ref(CalculatedFields)),
  },
  { ...strict, $id: 'CreateWorkbookInput' },
);

export const UpdateWorkbookInput = Type.Object(
  {
    name: nullable(Name),
    folderId: Type.Optional(FolderId),
    meta: nullable(Free),
    calculatedFields: Type.Optional(Type.Ref(CalculatedFields)),
  },
  { ...strict, $id: 'UpdateWorkbookInput' },
);

export const WorkbooksListResponse = Type.Object(
  {
    items: Type.Array(Type.Ref(Workbook)),
    data: Type.Array(Type.Ref(Workbook), { description: 'The same items (the reference returns both).' }),
    count: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Items on this page.' }),
    pageInfo: Type.Ref(PageInfo),
  },
  { $id: 'WorkbooksListResponse' },
);

export const WorkbookParams = Type.Object({ deploymentId: IntegerId, workbookId: IntegerId });
export const DeploymentParams = Type.Object({ deploymentId: IntegerId });
export const WorkbooksQuery = Type.Object(
  {
    folderId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Type.Null()], {
        description: 'Only the workbooks of this folder; 0 (or null) for those at the root. Omitted: every workbook the caller may read.',
      }),
    ),
    first: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size (default 100).' })),
    after: Type.Optional(Type.String({ description: 'Cursor: the `endCursor` of the previous page.' })),
  },
  strict,
);

export const workbookSchemas = [
  CalculatedField,
  CalculatedFields,
  Workbook,
  CreateWorkbookInput,
  UpdateWorkbookInput,
  WorkbooksListResponse,
];

/** What every workspace operation open to embed sessions says of them. */
export const CREATOR_MODE =
  "A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's content in its own deployment only: what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403.";
