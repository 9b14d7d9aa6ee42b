import type { ConfigFile } from './config.js';
import { HttpClient, type TokenPair } from './http.js';
import type { IO } from './io.js';
import { Output } from './output.js';
import { resolveTarget, type Target, type TargetFlags } from './target.js';

export interface GlobalFlags {
  json?: boolean;
  context?: string;
}

/**
 * Hands commands what they need, each made on first use: the config file, the resolved target,
 * the HTTP client and the output. A command that never talks to a server never reads the config.
 */
export class Factory {
  readonly output: Output;
  private configPromise?: Promise<ConfigFile>;
  private clientInstance?: HttpClient;

  constructor(
    readonly io: IO,
    readonly globals: GlobalFlags,
    readonly version: string,
  ) {
    this.output = new Output(io, globals.json === true);
  }

  async configPath(): Promise<string> {
    const { configPath } = await import('./config.js');
    return configPath(this.io);
  }

  config(): Promise<ConfigFile> {
    return (this.configPromise ??= (async () => {
      const { loadConfig } = await import('./config.js');
      return loadConfig(await this.configPath());
    })());
  }

  async saveConfig(config: ConfigFile): Promise<void> {
    const { saveConfig } = await import('./config.js');
    await saveConfig(await this.configPath(), config);
    this.configPromise = Promise.resolve(config);
  }

  async target(flags: TargetFlags = {}): Promise<Target> {
    return resolveTarget(this.io, await this.config(), { context: this.globals.context, ...flags });
  }

  /** The client for the resolved target; refreshed tokens are saved back to their context. */
  async client(flags: TargetFlags = {}): Promise<HttpClient> {
    if (this.clientInstance && Object.keys(flags).length === 0) return this.clientInstance;
    const target = await this.target(flags);
    const client = this.clientFor(target);
    if (Object.keys(flags).length === 0) this.clientInstance = client;
    return client;
  }

  /** A client for an explicit target (login, before any context exists). */
  clientFor(target: Target): HttpClient {
    return new HttpClient(target, `plinth/${this.version} (${this.io.platform}; node ${process.versions.node})`, (pair) =>
      this.saveTokens(target, pair),
    );
  }

  private async saveTokens(target: Target, pair: TokenPair): Promise<void> {
    if (!target.contextName) return;
    const config = await this.config();
    const context = config.contexts[target.contextName];
    if (!context) return;
    context.access_token = pair.access_token;
    context.refresh_token = pair.refresh_token;
    context.expires_at = new Date(Date.now() + pair.expires_in * 1000).toISOString();
    await this.saveConfig(config);
  }
}
