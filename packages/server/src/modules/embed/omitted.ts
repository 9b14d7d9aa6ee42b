import type { GenerateSessionInput } from './schemas.js';

/** Theme overrides as the token carries them: only what was set, nested as sent. */
export interface EmbedThemeOverrides {
  [property: string]: string | EmbedThemeOverrides;
}

type Present<T> = { [K in keyof T]: Exclude<T[K], null> };
type Item<T> = T extends Array<infer U> ? U : never;
type Nested = 'userProfile' | 'settings' | 'groupDefinitions' | 'userAttributeDefinitions' | 'embedTheme';

/** The request with every `null` of an optional field gone, as if it had not been sent. */
export type SessionInput = Omit<Present<GenerateSessionInput>, Nested> & {
  userProfile?: Present<NonNullable<GenerateSessionInput['userProfile']>> | undefined;
  settings?: Present<NonNullable<GenerateSessionInput['settings']>> | undefined;
  groupDefinitions?: Array<Present<Item<NonNullable<GenerateSessionInput['groupDefinitions']>>>> | undefined;
  userAttributeDefinitions?: Array<Present<Item<NonNullable<GenerateSessionInput['userAttributeDefinitions']>>>> | undefined;
  embedTheme?: EmbedThemeOverrides | undefined;
};

/**
 * Cube Cloud clients send `null` for every optional field they leave out: `null` means omitted,
 * everywhere but where it is a value (a user attribute's `null` clears it; securityContext is the
 * caller's own data and passes as sent).
 */
export function withoutNulls(input: GenerateSessionInput): SessionInput {
  const top = drop(input);
  return {
    ...top,
    userProfile: top.userProfile && drop(top.userProfile),
    settings: top.settings && drop(top.settings),
    groupDefinitions: top.groupDefinitions?.map(drop),
    userAttributeDefinitions: top.userAttributeDefinitions?.map(drop),
    embedTheme: top.embedTheme ? theme(top.embedTheme) : undefined,
  } as SessionInput;
}

function drop<T extends object>(value: T): Present<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) as Present<T>;
}

/** Nested overrides without their nulls; a part left with nothing set is left out, and so is an empty theme. */
function theme(value: object): EmbedThemeOverrides | undefined {
  const kept: EmbedThemeOverrides = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') kept[key] = v;
    else if (v !== null && typeof v === 'object') {
      const part = theme(v);
      if (part) kept[key] = part;
    }
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}
