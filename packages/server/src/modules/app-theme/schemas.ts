import { Type, type TProperties } from '@sinclair/typebox';
import { StringEnum } from '../../http/common-schemas.js';
import { COLOUR_FORMS, MAX_COLOUR_LENGTH, MAX_FONT_FAMILY_LENGTH } from './public.js';

export const MAX_FONTS = 20;
export const MAX_URL_LENGTH = 2048;

const Colour = (what: string) => Type.String({ minLength: 1, maxLength: MAX_COLOUR_LENGTH, description: `${what}: ${COLOUR_FORMS}.` });

const schemeFields = {
  accentColor: Colour('Buttons, links and highlights'),
  backgroundColor: Colour('Page background'),
  foregroundColor: Colour('Text'),
  contrast: Type.Number({ minimum: 0, maximum: 100, description: 'How strongly surfaces stand apart from the background, 0 to 100.' }),
  logoUrl: Type.String({ maxLength: MAX_URL_LENGTH, description: 'An absolute https:// (or http://) URL of the logo; empty for none.' }),
} satisfies TProperties;

const fontRefFields = {
  fontRef: Type.String({
    minLength: 1,
    maxLength: MAX_FONT_FAMILY_LENGTH,
    description: 'The `id` of one of `typography.fonts`, or a CSS font-family list (e.g. `Inter, sans-serif`).',
  }),
  fontWeight: Type.Integer({ minimum: 1, maximum: 1000, description: 'CSS font-weight, 1 to 1000 (400 regular, 700 bold).' }),
} satisfies TProperties;

export const ThemeFont = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'How `fontRef` names this font: letters, digits, _ and -.' }),
    url: Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'An absolute https:// URL of the font file.' }),
    format: StringEnum(['woff2', 'woff', 'truetype', 'opentype'], { description: 'The @font-face format of the file.' }),
    family: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The family name it is declared as.' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Shown in the theme editor.' })),
  },
  { additionalProperties: false, $id: 'ThemeFont' },
);

export const AppThemeScheme = Type.Object(schemeFields, { $id: 'AppThemeScheme' });
export const AppThemeFontRef = Type.Object(fontRefFields, { $id: 'AppThemeFontRef' });
export const AppThemeTypography = Type.Object(
  {
    fonts: Type.Array(Type.Ref(ThemeFont), { maxItems: MAX_FONTS, description: 'Font files the theme loads.' }),
    body: Type.Ref(AppThemeFontRef),
    heading: Type.Ref(AppThemeFontRef),
  },
  { $id: 'AppThemeTypography' },
);

export const AppThemeResponse = Type.Object(
  {
    applyThemeGlobally: Type.Boolean({ description: 'Whether the theme applies to the whole application, not only to dashboards.' }),
    light: Type.Ref(AppThemeScheme),
    dark: Type.Ref(AppThemeScheme),
    typography: Type.Ref(AppThemeTypography),
  },
  { $id: 'AppThemeResponse' },
);

/** Every property optional, nothing else allowed: a partial update names only what it changes. */
const partial = (properties: TProperties, description: string) =>
  Type.Optional(
    Type.Object(Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, Type.Optional(schema)])), {
      additionalProperties: false,
      minProperties: 1,
      description,
    }),
  );

export const UpdateAppThemeInput = Type.Object(
  {
    applyThemeGlobally: Type.Optional(Type.Boolean()),
    light: partial(schemeFields, 'Only the named colours change.'),
    dark: partial(schemeFields, 'Only the named colours change.'),
    typography: partial(
      {
        fonts: Type.Array(Type.Ref(ThemeFont), { maxItems: MAX_FONTS, description: 'Replaces the list.' }),
        body: partial(fontRefFields, 'Only the named properties change.'),
        heading: partial(fontRefFields, 'Only the named properties change.'),
      },
      'Only the named parts change; `fonts` is replaced whole.',
    ),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateAppThemeInput' },
);

export const appThemeSchemas = [ThemeFont, AppThemeScheme, AppThemeFontRef, AppThemeTypography, AppThemeResponse, UpdateAppThemeInput];
