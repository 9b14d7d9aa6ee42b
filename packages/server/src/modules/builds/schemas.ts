import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../http/common-schemas.js';
import { PageInfo, PageQuery } from '../../http/pagination.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const CompileErrorSchema = Type.Object(
  {
    fileName: Type.String({ description: 'The model file at fault, relative to the model root (empty when the build itself failed).' }),
    line: Type.Optional(Type.Integer()),
    column: Type.Optional(Type.Integer()),
    message: Type.String(),
  },
  { $id: 'CompileError' },
);

export const Build = Type.Object(
  {
    deploymentId: Type.Integer(),
    branchName: Type.String(),
    status: StringEnum(['building', 'built', 'failed', 'cancelled', 'dev_mode'] as const, {
      description: '`building` covers queued and running builds; `dev_mode`: a dev-mode branch whose head has no build.',
    }),
    buildId: Nullable(Type.Integer()),
    commitId: Type.Integer(),
    errors: Type.Array(Type.Ref(CompileErrorSchema), { description: "The compiler's own errors, each pointing at its file." }),
    cubesCount: Nullable(Type.Integer()),
    trigger: Nullable(Type.String({ description: 'What queued it: deploy, commit, merge, merge-to-default, validate, rebuild…' })),
    createdAt: Nullable(Type.String({ format: 'date-time' })),
    startedAt: Nullable(Type.String({ format: 'date-time' })),
    finishedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'Build' },
);

export const BuildList = Type.Object(
  { branchName: Type.String(), items: Type.Array(Type.Ref(Build)), pageInfo: Type.Ref(PageInfo) },
  { $id: 'BuildList', description: 'Builds of one branch, newest first.' },
);

export const ValidateBody = Type.Object(
  {
    branch: Type.Optional(
      Type.String({ maxLength: 100, description: 'Empty or omitted: the dev-mode branch if a session is open, else main.' }),
    ),
    devMode: Type.Optional(Type.Boolean({ description: "Compile the caller's dev-mode branch and record the result as its build." })),
  },
  { additionalProperties: false, $id: 'ValidateDataModelInput' },
);

export const ValidateResult = Type.Object(
  {
    valid: Type.Boolean(),
    errors: Type.Array(Type.Ref(CompileErrorSchema)),
    cubesCount: Type.Integer(),
    branchName: Type.String(),
    commitId: Type.Integer(),
  },
  { $id: 'ValidateDataModelResult' },
);

export const BranchQuery = Type.Object({
  branch: Type.Optional(
    Type.String({ maxLength: 100, description: 'Empty or omitted: the dev-mode branch if a session is open, else main.' }),
  ),
});
export const BuildsQuery = Type.Composite([PageQuery, BranchQuery]);
export const RebuildBody = Type.Object(
  { branch: Type.Optional(Type.String({ maxLength: 100 })) },
  { additionalProperties: false, $id: 'CreateDeploymentBuildInput' },
);
export const BuildParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  buildId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});

export const buildSchemas = [CompileErrorSchema, Build, BuildList, ValidateBody, ValidateResult, RebuildBody];
