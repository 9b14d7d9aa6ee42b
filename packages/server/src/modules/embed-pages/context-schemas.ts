import { Type } from '@sinclair/typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** What the embedded pages show of their user: the header's avatar and name. */
export const EmbedContextUser = Type.Object(
  {
    type: Type.Union([Type.Literal('external'), Type.Literal('internal')]),
    externalId: Nullable(Type.String({ description: "The external user's id; null for an internal user." })),
    email: Nullable(Type.String()),
    displayName: Nullable(Type.String({ description: "The session's userProfile.displayName." })),
    picture: Nullable(Type.String({ description: "The session's userProfile.picture: an http(s) URL the browser loads." })),
  },
  { additionalProperties: false, $id: 'EmbedContextUser' },
);

/** Everything an embedded page needs beside the dashboard: who, what it may show, and how it looks. */
export const EmbedContext = Type.Object(
  {
    user: Type.Ref(EmbedContextUser),
    creatorMode: Type.Boolean(),
    showDashboardChat: Type.Boolean({
      description:
        "Whether the dashboard shows its chat: the session's setting, else the account's (resolved when the session was minted).",
    }),
    appTheme: Type.Ref('AppThemeResponse', { description: "The account's app theme: light and dark palettes and typography." }),
    embedTheme: Type.Ref('EmbedTheme', {
      description:
        "The account's embed theme with the session's `embedTheme` overrides laid over it; null: not set (the app theme's applies).",
    }),
  },
  { additionalProperties: false, $id: 'EmbedContext' },
);

export const embedContextSchemas = [EmbedContextUser, EmbedContext];
