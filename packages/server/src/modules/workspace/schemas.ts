import { Type, type Static } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';

export const OBJECT_TYPES = ['FOLDER', 'WORKBOOK', 'REPORT'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];
export const ORDER_FIELDS = ['updated_at', 'created_at', 'name', 'viewer_last_viewed_at'] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];
export const DIRECTIONS = ['ASC', 'DESC'] as const;
export type OrderDirection = (typeof DIRECTIONS)[number];

export const WorkspaceObjectType = StringEnum(OBJECT_TYPES, { $id: 'MoveWorkspaceObjectInputType' });
export const OrderByField = StringEnum(ORDER_FIELDS, {
  $id: 'GetWorkspaceObjectsQueryOrderByField',
  description:
    'What the items are sorted by (folders always come first). Plinth records no views: `viewer_last_viewed_at` sorts by `updated_at`.',
});
export const OrderByDirection = StringEnum(DIRECTIONS, { $id: 'GetWorkspaceObjectsQueryOrderByDirection' });

/** What every item of the workspace has, whatever its kind. */
const common = {
  id: Type.Integer(),
  name: Type.String(),
  deploymentId: Type.Integer(),
  folderId: Type.Union([Type.Integer(), Type.Null()], { description: "The folder it sits in (a folder's parent); null at the root." }),
  createdBy: Type.Union([Type.Integer(), Type.Null()], { description: 'The user who created it; null once that user is deleted.' }),
  updatedBy: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const WorkspaceFolder = Type.Object(
  {
    type: Type.Literal('FOLDER'),
    ...common,
    parentId: Type.Union([Type.Integer(), Type.Null()], { description: 'The same as folderId, as a Folder names it.' }),
    position: Type.Integer({ description: 'Order among its sibling folders.' }),
  },
  { $id: 'WorkspaceFolder', description: 'A folder (`type: FOLDER`): the fields of a Folder.' },
);

export const WorkspaceWorkbook = Type.Object(
  { type: Type.Literal('WORKBOOK'), ...common, meta: Type.Object({}, { additionalProperties: true }) },
  { $id: 'WorkspaceWorkbook', description: 'A workbook (`type: WORKBOOK`); its dashboard and calculated fields come with getWorkbook.' },
);

export const WorkspaceReport = Type.Object(
  {
    type: Type.Literal('REPORT'),
    ...common,
    title: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    workbookId: Type.Union([Type.Integer(), Type.Null()], { description: 'The workbook it belongs to, if any.' }),
    publicId: Type.String(),
  },
  { $id: 'WorkspaceReport', description: 'A report (`type: REPORT`); its query and snapshot come with getReport.' },
);

export const WorkspaceItem = Type.Union([Type.Ref(WorkspaceFolder), Type.Ref(WorkspaceWorkbook), Type.Ref(WorkspaceReport)], {
  $id: 'WorkspaceItem',
  description:
    'One item of the workspace: `type` says its kind (FOLDER, WORKBOOK or REPORT) and which fields follow beside the common ones (id, name, deploymentId, folderId, createdBy, updatedBy, createdAt, updatedAt).',
});
export type WorkspaceItemView = Static<typeof WorkspaceFolder> | Static<typeof WorkspaceWorkbook> | Static<typeof WorkspaceReport>;

export const WorkspaceConnectionResponse = Type.Object(
  { items: Type.Array(Type.Ref(WorkspaceItem)), pageInfo: Type.Ref('PageInfo') },
  { $id: 'WorkspaceConnectionResponse' },
);

export const WorkspaceQuery = Type.Composite(
  [
    Type.Object({
      folderId: Type.Optional(
        Type.Union([IntegerId, Type.Literal('null'), Type.Literal('')], {
          description:
            'Only the items directly in this folder. Absent or `null`: the top of the workspace (items at the root, and those whose folder the caller may not open).',
        }),
      ),
      types: Type.Optional(
        Type.Array(Type.Ref(WorkspaceObjectType), {
          description: 'Only items of these kinds: repeat the parameter (`types=FOLDER&types=REPORT`) or separate them with commas.',
        }),
      ),
      orderByField: Type.Optional(Type.Ref(OrderByField)),
      orderByDirection: Type.Optional(Type.Ref(OrderByDirection)),
      search: Type.Optional(
        Type.String({
          maxLength: 255,
          description: 'Only items whose name contains this, ignoring case; without `folderId` it searches every folder, not just the top.',
        }),
      ),
    }),
    PageQuery,
  ],
  { additionalProperties: false },
);
export type WorkspaceQuery = Static<typeof WorkspaceQuery>;

export const MoveWorkspaceObjectInput = Type.Object(
  {
    type: Type.Ref(WorkspaceObjectType),
    id: IntegerId,
    folderId: Type.Optional(Type.Union([IntegerId, Type.Null()], { description: 'The folder to move it into; null or absent: the root.' })),
  },
  { $id: 'MoveWorkspaceObjectInput', additionalProperties: false },
);

export const DeploymentParams = Type.Object({ deploymentId: IntegerId });

export const workspaceSchemas = [
  WorkspaceObjectType,
  OrderByField,
  OrderByDirection,
  WorkspaceFolder,
  WorkspaceWorkbook,
  WorkspaceReport,
  WorkspaceItem,
  WorkspaceConnectionResponse,
  MoveWorkspaceObjectInput,
];
