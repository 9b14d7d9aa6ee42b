import { defineOptions, type OptionsOf } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';

/** The flags create and update share; each maps to one field of the config. */
export const CONFIG_OPTIONS = defineOptions([
  { flags: '--name <name>', description: 'Name, unique in the account' },
  { flags: '--issuer <url>', description: "The issuer, exactly as its tokens' iss claim says (https; http only for localhost)" },
  { flags: '--audience <aud>', description: 'An audience the tokens must name in aud (repeatable)', repeatable: true },
  { flags: '--jwks-uri <url>', description: "Where the issuer's keys are (default: from its discovery document)" },
  {
    flags: '--user-claim <claim>',
    description: 'The claim naming the user: email (default) or sub (matched against externalId)',
    choices: ['email', 'sub'],
  },
  {
    flags: '--algorithm <alg>',
    description: 'An allowed signing algorithm, e.g. RS256 or ES256 (repeatable; default RS256)',
    repeatable: true,
  },
  { flags: '--enable', description: 'Let its tokens be exchanged (the default for a new config)' },
  { flags: '--disable', description: 'Stop exchanging its tokens, keeping the config' },
]);

export function configFields(o: OptionsOf<typeof CONFIG_OPTIONS>): Record<string, unknown> {
  if (o.enable && o.disable) throw new UsageError('--enable and --disable do not go together');
  return {
    name: o.name,
    issuer: o.issuer,
    audiences: o.audience,
    jwksUri: o.jwksUri,
    userClaim: o.userClaim,
    algorithms: o.algorithm,
    enabled: o.enable ? true : o.disable ? false : undefined,
  };
}

export const CONFIG_COLUMNS: Array<[string, string]> = [
  ['ID', 'id'],
  ['Name', 'name'],
  ['Issuer', 'issuer'],
  ['User claim', 'userClaim'],
  ['Enabled', 'enabled'],
];
