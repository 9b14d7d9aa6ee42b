import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { IO } from './io.js';
import { CliError } from './errors.js';

/** One saved context: a server and the credential used with it. */
export interface Context {
  url: string;
  /** `api-key` or `bearer`; when absent, derived from the credential. */
  auth_scheme?: string;
  api_key?: string;
  access_token?: string;
  refresh_token?: string;
  /** ISO time the access token expires; a hint only, the server decides. */
  expires_at?: string;
  /** Who logged in, for `context list` (e-mail or key name). */
  user?: string;
}

export interface ConfigFile {
  current_context?: string;
  contexts: Record<string, Context>;
}

/** DESIGN.md: `$XDG_CONFIG_HOME/plinth/config.toml`, `~/.config/...`, or `%APPDATA%\plinth\` on Windows. */
export function configDir(io: Pick<IO, 'env' | 'platform' | 'homedir'>): string {
  if (io.platform === 'win32' && io.env.APPDATA) return join(io.env.APPDATA, 'plinth');
  const base = io.env.XDG_CONFIG_HOME || join(io.homedir, '.config');
  return join(base, 'plinth');
}

export function configPath(io: Pick<IO, 'env' | 'platform' | 'homedir'>): string {
  return join(configDir(io), 'config.toml');
}

export async function loadConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { contexts: {} };
    throw error;
  }
  const { parse } = await import('smol-toml');
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`Cannot read ${path}: ${(error as Error).message.split('\n')[0]}`, 'Fix or delete the file, then log in again.');
  }
  const contexts = (data.contexts ?? {}) as Record<string, Context>;
  return { current_context: typeof data.current_context === 'string' ? data.current_context : undefined, contexts };
}

/**
 * Writes atomically: a temporary file with mode 0600 in the same directory, then a rename, so a
 * crash never leaves half a file and the credentials are never readable by others.
 */
export async function saveConfig(path: string, config: ConfigFile): Promise<void> {
  const { stringify } = await import('smol-toml');
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const data: Record<string, unknown> = {};
  if (config.current_context) data.current_context = config.current_context;
  data.contexts = config.contexts;
  const text = `# plinth configuration: contexts and their credentials. Keep this file private.\n${stringify(data)}\n`;
  const temp = join(dir, `.config.toml.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(temp, text, { mode: 0o600 });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
