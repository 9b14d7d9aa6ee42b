import { Type, type Static } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';

export const MAX_NAME = 255;
const Position = Type.Integer({
  minimum: -2_147_483_648,
  maximum: 2_147_483_647,
  description: 'Order among its siblings: lists show folders by position, then id.',
});
const ParentId = Type.Union([IntegerId, Type.Null()], { description: 'The folder it sits in; null at the root of the workspace.' });

export const FolderType = StringEnum(['FOLDER'] as const, { $id: 'FolderDtoType' });

export const Folder = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    parentId: Type.Union([Type.Integer(), Type.Null()], { description: 'The folder it sits in; null at the root.' }),
    position: Type.Integer(),
    type: Type.Ref(FolderType),
    deploymentId: Type.Integer(),
    createdBy: Type.Union([Type.Integer(), Type.Null()], { description: 'The user who created it; null once that user is deleted.' }),
    updatedBy: Type.Union([Type.Integer(), Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    $id: 'Folder',
    description:
      "A folder of a deployment's workspace. It is private to its creator until a resource policy shares it (`Folder` policies reach everything inside).",
  },
);
export type FolderView = Static<typeof Folder>;

export const FoldersListResponse = Type.Object(
  {
    items: Type.Array(Type.Ref(Folder)),
    data: Type.Array(Type.Ref(Folder), { description: 'Deprecated: the same folders as `items`, for clients of the older shape.' }),
    count: Type.Integer({ minimum: 0, description: 'Deprecated: how many folders of this level the caller may read, ignoring paging.' }),
    pageInfo: Type.Ref('PageInfo'),
  },
  { $id: 'FoldersListResponse' },
);

export const FolderParams = Type.Object({ deploymentId: IntegerId, folderId: IntegerId });
export const DeploymentFolderParams = Type.Object({ deploymentId: IntegerId });

export const FoldersQuery = Type.Composite(
  [
    Type.Object({
      parentId: Type.Optional(
        Type.Union([Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Type.Literal('null'), Type.Literal('')], {
          description: 'Only the folders directly in this folder; absent, `null` or 0 for the root.',
        }),
      ),
    }),
    PageQuery,
  ],
  { additionalProperties: false },
);

const Name = Type.String({ maxLength: MAX_NAME, description: 'Unique among its siblings, ignoring case; not blank.' });

export const CreateFolderInput = Type.Object(
  { name: Name, parentId: Type.Optional(ParentId), position: Type.Optional(Type.Union([Position, Type.Null()])) },
  { $id: 'CreateFolderInput', additionalProperties: false },
);

export const UpdateFolderInput = Type.Object(
  {
    name: Type.Optional(Type.Union([Name, Type.Null()])),
    position: Type.Optional(Type.Union([Position, Type.Null()])),
    parentId: Type.Optional(
      Type.Union([IntegerId, Type.Null()], {
        description: 'Moves the folder into this folder (null: to the root); never into itself or a folder inside it. Absent: stays.',
      }),
    ),
  },
  { $id: 'UpdateFolderInput', additionalProperties: false },
);

export const DeleteFolderQuery = Type.Object(
  {
    deleteContents: Type.Optional(
      Type.Boolean({
        description: 'Delete a non-empty folder with everything in it: sub-folders, reports, workbooks and their dashboards.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const folderSchemas = [FolderType, Folder, FoldersListResponse, CreateFolderInput, UpdateFolderInput];
