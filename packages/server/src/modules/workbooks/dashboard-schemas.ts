import { Type, type TSchema } from '@sinclair/typebox';
import { IntegerId, StringEnum } from '../../http/common-schemas.js';

/**
 * A dashboard's configuration as the reference shapes it: widgets placed on a responsive grid
 * (`position` and per-breakpoint `responsiveLayouts`), the grid itself (`layout`), free-form
 * `settings` and a `theme`. The input side rejects unknown fields; widget `config` and `style`
 * stay free-form objects (each widget type keeps its own settings there).
 */
export const WIDGET_TYPES = ['CHART', 'TEXT', 'FILTER', 'AI', 'TABS_CONTAINER', 'TIME_GRAIN'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
export const MAX_WIDGETS = 500;

const strict = { additionalProperties: false } as const;
const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Text = Type.String({ maxLength: 10_000 });
const Free = Type.Object({}, { additionalProperties: true });
const Cell = Type.Integer({ minimum: 0, maximum: 10_000 });
const Span = Type.Integer({ minimum: 1, maximum: 10_000 });
const BREAKPOINTS = ['lg', 'md', 'sm', 'xs', 'xxs'] as const;
const perBreakpoint = <T extends TSchema>(value: T, $id: string, title?: string) =>
  Type.Object(Object.fromEntries(BREAKPOINTS.map((b) => [b, nullable(value)])), { ...strict, $id, ...(title ? { title } : {}) });

export const WidgetTypeSchema = StringEnum(WIDGET_TYPES, { $id: 'DashboardWidgetDtoType' });
export const WidgetPosition = Type.Object({ x: Cell, y: Cell, w: Span, h: Span }, { ...strict, $id: 'DashboardWidgetPosition' });
export const ResponsiveLayouts = perBreakpoint(Type.Ref(WidgetPosition), 'DashboardResponsiveLayouts');
export const Breakpoints = perBreakpoint(Type.Integer({ minimum: 0, maximum: 100_000 }), 'DashboardBreakpoints');
export const BreakpointCols = perBreakpoint(Type.Integer({ minimum: 1, maximum: 1000 }), 'DashboardBreakpointCols');

export const DashboardLayout = Type.Object(
  {
    breakpoints: nullable(Type.Ref(Breakpoints)),
    cols: nullable(Type.Ref(BreakpointCols)),
    containerPadding: nullable(Type.Array(Type.Integer({ minimum: 0, maximum: 1000 }), { maxItems: 2 })),
    margin: nullable(Type.Array(Type.Integer({ minimum: 0, maximum: 1000 }), { maxItems: 2 })),
    rowHeight: nullable(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { ...strict, $id: 'DashboardLayout', description: 'The grid widgets are placed on.' },
);

export const DashboardWidget = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200, description: 'Unique within the dashboard.' }),
    type: Type.Ref(WidgetTypeSchema),
    position: Type.Ref(WidgetPosition),
    responsiveLayouts: nullable(Type.Ref(ResponsiveLayouts)),
    config: nullable({
      ...Free,
      description:
        'Settings of the widget type. CHART: `reportId`, a report of this workbook. TABS_CONTAINER: `tabs`, each with `widgetIds` naming other widgets of the dashboard.',
    }),
    style: nullable(Free),
  },
  { ...strict, $id: 'DashboardWidget' },
);

/** The theme sections of the reference (DashboardThemeInput): strings for colours, fonts and sizes. */
const section = (fields: readonly string[], nested: Record<string, TSchema> = {}) =>
  Type.Object({ ...Object.fromEntries(fields.map((f) => [f, nullable(Type.String({ maxLength: 200 }))])), ...nested }, strict);
const Border = section(['color', 'radius', 'style', 'width']);
const TitleText = section(['color', 'fontFamily', 'fontSize', 'fontWeight']);
export const DashboardTheme = Type.Object(
  {
    backgroundColor: nullable(Type.String({ maxLength: 200 })),
    fontFamily: nullable(Type.String({ maxLength: 200 })),
    primaryColor: nullable(Type.String({ maxLength: 200 })),
    themeId: nullable(Type.String({ maxLength: 200 })),
    controls: nullable(section(['backgroundColor', 'padding'], { border: nullable(Border), title: nullable(TitleText) })),
    dashboard: nullable(section(['backgroundColor', 'padding'])),
    widgets: nullable(
      section(['backgroundColor', 'margin', 'padding'], {
        border: nullable(Border),
        text: nullable(section(['codeFontFamily', 'color', 'fontFamily', 'secondaryColor'])),
        title: nullable(TitleText),
      }),
    ),
  },
  { ...strict, $id: 'DashboardThemeInput' },
);

const configFields = {
  title: nullable(Type.String({ maxLength: 500 })),
  description: nullable(Text),
  layout: nullable(Type.Ref(DashboardLayout)),
  settings: nullable(Free),
  theme: nullable(Type.Ref(DashboardTheme)),
};

export const DashboardConfigInput = Type.Object(
  { ...configFields, widgets: Type.Array(Type.Ref(DashboardWidget), { maxItems: MAX_WIDGETS }) },
  { ...strict, $id: 'DashboardConfigInput' },
);

export const DashboardConfig = Type.Object(
  { ...configFields, widgets: nullable(Type.Array(Type.Ref(DashboardWidget))) },
  { $id: 'DashboardConfig' },
);

export const WorkbookDashboardInput = Type.Object(
  {
    dashboardDraft: Type.Union([Type.Ref(DashboardConfigInput), Type.Null()], {
      description: 'The draft to keep; null clears it.',
    }),
  },
  { ...strict, $id: 'WorkbookDashboardInput' },
);

export const WorkbookDashboard = Type.Object(
  {
    dashboardDraft: Type.Union([Type.Ref(DashboardConfig), Type.Null()]),
    dashboardPublished: Type.Union([Type.Ref(DashboardConfig), Type.Null()]),
  },
  { $id: 'WorkbookDashboard' },
);

export const DashboardStatusSchema = StringEnum(['draft', 'published', 'archived'] as const, { $id: 'DashboardDtoStatus' });

export const PublishDashboardInput = Type.Object(
  {
    workbookId: { ...IntegerId, description: 'The workbook of the path (the reference carries it in the body too).' },
    dashboardId: nullable({ ...IntegerId, description: "The workbook's dashboard, when the caller names it; another id is 400." }),
    config: nullable(Type.Ref(DashboardConfigInput)),
    title: nullable(Type.String({ maxLength: 500 })),
    description: nullable(Text),
    status: Type.Optional(
      StringEnum(['published', 'archived'] as const, {
        description:
          '`published` (default) freezes the draft (or `config`) into a new version. `archived` takes the published dashboard out of embedding without a new version; publishing again brings it back.',
      }),
    ),
  },
  { ...strict, $id: 'PublishDashboardInput' },
);

export const ReportSnapshot = Type.Object(
  {
    id: Type.Integer(),
    reportId: Type.Integer(),
    versionNumber: Type.Integer({ description: "The report's version when the dashboard was published." }),
    name: Type.Union([Type.String(), Type.Null()]),
    title: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    kind: Type.Null({ description: 'Not recorded by Plinth.' }),
    meta: Type.Union([Free, Type.Null()]),
    preferences: Type.Null({ description: 'Not recorded by Plinth.' }),
    spec: Type.Union([Type.String(), Free, Type.Null()], { description: "The report's Cube query (jsonQuery)." }),
    sqlQuery: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'ReportSnapshot' },
);

export const Dashboard = Type.Object(
  {
    id: Type.Integer(),
    publicId: Type.String({ description: 'Stable from the first publish on.' }),
    deploymentId: Type.Integer(),
    workbookId: Type.Integer(),
    status: Type.Ref(DashboardStatusSchema),
    allowEmbed: Type.Boolean({ description: 'Whether embed tokens may open it (off until enabled).' }),
    config: Type.Ref(DashboardConfig),
    versionNumber: Type.Integer({ description: '1 for the first publish, one more for each publish after.' }),
    versionId: Type.Integer(),
    reportSnapshots: Type.Array(Type.Ref(ReportSnapshot)),
    title: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    createdBy: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: 'Dashboard' },
);

export const EmbedAccessInput = Type.Object(
  { allowEmbed: Type.Boolean({ description: 'Whether embed tokens of the deployment may open the dashboard.' }) },
  { ...strict, $id: 'UpdateDashboardEmbedAccessInput' },
);

export const dashboardSchemas = [
  WidgetTypeSchema,
  WidgetPosition,
  ResponsiveLayouts,
  Breakpoints,
  BreakpointCols,
  DashboardLayout,
  DashboardWidget,
  DashboardTheme,
  DashboardConfigInput,
  DashboardConfig,
  WorkbookDashboardInput,
  WorkbookDashboard,
  DashboardStatusSchema,
  PublishDashboardInput,
  ReportSnapshot,
  Dashboard,
  EmbedAccessInput,
];
