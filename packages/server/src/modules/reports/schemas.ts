import { Type, type Static } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { MAX_PAGE_SIZE, PageInfo } from '../../http/pagination.js';

export const REPORT_SOURCES = ['GOOGLE_SHEETS', 'EXCEL', 'PLAYGROUND', 'D3'] as const;
export const SORT_BY = ['createdAt', 'updatedAt', 'lastViewedAt'] as const;
export const SORT_DIRECTIONS = ['ASC', 'DESC'] as const;
/** Longest query text a report keeps: far above any hand-written query, well below a request's size limit. */
export const MAX_QUERY_TEXT = 100_000;

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Text = (maxLength: number) => nullable(Type.String({ maxLength }));

export const ResourceOwner = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String({ description: 'The sign-in address; the SCIM userName (or empty) for a user provisioned without one.' }),
    firstName: nullable(Type.String()),
    picture: nullable(Type.String()),
  },
  { $id: 'ResourceOwner' },
);

const PivotFields = {
  columns: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 500 }),
  filters: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 500 }),
  measures: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 500 }),
  rows: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 500 }),
};
export const PivotItems = Type.Object(PivotFields, { $id: 'PivotItems', additionalProperties: false });

const PublicId = Type.String({
  minLength: 12,
  maxLength: 12,
  pattern: '^[0-9A-Za-z]+$',
  description: '12 letters and digits, unique across the platform; generated when not given.',
});

const JSON_QUERY =
  "A Cube query (or an array of them) as JSON text, e.g. '{\"measures\":[\"orders.count\"]}'. It must parse as a JSON object or array.";
const SQL_QUERY =
  'A SELECT over cubes and views that one semantic query answers, as the SQL API (`/cubesql`) translates it; refreshed through the same translation.';

/** Fields a client may set on create and update. */
const writable = {
  name: Text(255),
  title: Text(255),
  description: Text(2000),
  jsonQuery: { ...Text(MAX_QUERY_TEXT), description: JSON_QUERY },
  sqlQuery: { ...Text(MAX_QUERY_TEXT), description: SQL_QUERY },
  pivotItems: nullable(Type.Ref(PivotItems)),
  meta: nullable(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'Free-form JSON object kept with the report. `chartType` says how pages draw it: line, bar, area, pie, table or number (kpi: number); any other value is a 400.',
      },
    ),
  ),
  folderId: { ...nullable(IntegerId), description: 'The folder holding the report (FolderEdit on it); null: the root.' },
  workbookId: { ...nullable(IntegerId), description: 'The workbook of the same deployment holding the report (WorkbookEdit on it).' },
  endResultCell: Text(255),
  externalWorkbookId: Text(255),
  resultLocation: Text(2048),
};

export const CreateReportInput = Type.Partial(
  Type.Object({ ...writable, source: nullable(StringEnum(REPORT_SOURCES)), publicId: nullable(PublicId) }),
  {
    $id: 'CreateReportInput',
    additionalProperties: false,
    description: 'The name defaults to the title, else "Untitled report". At most one of jsonQuery and sqlQuery.',
  },
);

export const UpdateReportInput = Type.Partial(Type.Object(writable), {
  $id: 'UpdateReportInput',
  additionalProperties: false,
  description: 'Only the fields given change; null clears a field (not name). Moving into a folder or workbook needs Edit on it.',
});

export const Report = Type.Object(
  {
    id: Type.Integer(),
    publicId: Type.String(),
    deploymentId: Type.Integer(),
    type: StringEnum(['REPORT'] as const),
    name: Type.String(),
    title: nullable(Type.String()),
    description: nullable(Type.String()),
    source: nullable(StringEnum(REPORT_SOURCES)),
    jsonQuery: nullable(Type.String()),
    sqlQuery: nullable(Type.String()),
    pivotItems: nullable(Type.Ref(PivotItems)),
    meta: nullable(Type.Object({}, { additionalProperties: true })),
    folderId: nullable(Type.Integer()),
    workbookId: nullable(Type.Integer()),
    endResultCell: nullable(Type.String()),
    externalWorkbookId: nullable(Type.String()),
    resultLocation: nullable(Type.String()),
    version: Type.Integer({ description: 'Counts the changes of the report: 1 at creation, one more per update.' }),
    userId: nullable(Type.Integer({ description: 'The creator; null once the creator was deleted.' })),
    createdBy: nullable(Type.Integer()),
    user: nullable(Type.Ref(ResourceOwner)),
    refreshedBy: nullable(Type.Integer()),
    refreshedByUser: nullable(Type.Ref(ResourceOwner)),
    refreshedAt: nullable(Timestamp),
    refreshError: {
      ...nullable(Type.String()),
      description: 'Why the last refresh failed (the query no longer compiles, a member is hidden from the refreshing user, …); null after one that worked.',
    },
    snapshot: Type.Optional({
      ...nullable(Type.Object({}, { additionalProperties: true })),
      description:
        "The last successful refresh's answer as the data API gave it (`data`, `annotation`, `query`, …), as the refreshing user could see it: whoever may read the report reads this snapshot, so sharing a report shares the rows of its last refresh. Single-report responses only, not lists.",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Report' },
);

export const ReportsFindAllResult = Type.Object(
  { data: Type.Array(Type.Ref(Report)), pageInfo: Type.Ref(PageInfo) },
  { $id: 'ReportsFindAllResult' },
);

export const ReportFolder = Type.Object(
  {
    id: Type.Integer(),
    name: nullable(Type.String()),
    createdBy: nullable(Type.Integer()),
    reportsCount: Type.Integer({ description: 'Reports directly in this folder that the caller may read.' }),
  },
  { $id: 'ReportFolder' },
);

export const ReportFoldersFindAllResult = Type.Object(
  { data: Type.Array(Type.Ref(ReportFolder)) },
  {
    $id: 'ReportFoldersFindAllResult',
    description:
      'The folders of the deployment that directly hold at least one report the caller may read, with how many such reports each holds, by name.',
  },
);

export const ReportsQuery = Type.Object(
  {
    workbookId: Type.Optional({ ...IntegerId, description: 'Only the reports of this workbook.' }),
    sortBy: Type.Optional(StringEnum(SORT_BY, { description: 'createdAt by default. Plinth records no views: lastViewedAt orders as updatedAt.' })),
    sortDirection: Type.Optional(StringEnum(SORT_DIRECTIONS, { description: 'DESC by default.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Page size with `page` (offset paging).' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Page number, from 1, with `limit`.' })),
    first: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Page size (cursor paging, default 100).' })),
    after: Type.Optional(Type.String({ description: 'Cursor: the `endCursor` of the previous page.' })),
  },
  { additionalProperties: false },
);
export type ReportsQuery = Static<typeof ReportsQuery>;

export const ReportParams = Type.Object({ deploymentId: IntegerId, reportId: IntegerId });

export type ReportView = Static<typeof Report>;
export type CreateReportInput = Static<typeof CreateReportInput>;
export type UpdateReportInput = Static<typeof UpdateReportInput>;

export const reportSchemas = [ResourceOwner, PivotItems, CreateReportInput, UpdateReportInput, Report, ReportsFindAllResult, ReportFolder, ReportFoldersFindAllResult];
