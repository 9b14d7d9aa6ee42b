import { readFileSync } from 'node:fs';

/** The installed version, read from the package's own package.json (src/ and dist/ sit beside it). */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
