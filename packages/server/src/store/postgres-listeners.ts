import pg from 'pg';
import { quoteIdent } from './store.js';

type OnMessage = (payload: string | null) => void;

const RECONNECT_MS = 1_000;

/**
 * One dedicated connection per process for LISTEN, outside the pool (a pooled connection would be
 * handed to queries). If it drops, it reconnects, and tells every listener that it may have missed
 * messages twice: when the connection is lost, and again once it listens anew, since what was
 * written in between told no one.
 */
export class PostgresListeners {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private readonly channels = new Map<string, OnMessage[]>();
  private closed = false;
  /** A connection was lost: the next one to listen tells every listener it may have missed messages. */
  private missed = false;
  /** The statement running on the connection: the next one waits for it (pg 9 refuses overlaps). */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly url: string) {}

  async add(channel: string, onMessage: OnMessage): Promise<void> {
    const existing = this.channels.get(channel);
    if (existing) {
      existing.push(onMessage);
      return;
    }
    this.channels.set(channel, [onMessage]);
    const client = await this.connection();
    await this.serially(client, `listen ${quoteIdent(channel)}`);
  }

  /**
   * Caches start listening side by side, all on this one connection: each statement is sent only
   * once the one before it has finished, whether that one succeeded or not.
   */
  private serially(client: pg.Client, text: string): Promise<unknown> {
    const next = this.tail.catch(() => {}).then(() => client.query(text));
    this.tail = next;
    return next;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (this.connecting ? await this.connecting.catch(() => null) : null);
    this.client = null;
    await client?.end().catch(() => {});
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      for (const onMessage of this.channels.get(message.channel) ?? []) onMessage(message.payload ?? '');
    });
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    await client.connect();
    for (const channel of this.channels.keys()) await this.serially(client, `listen ${quoteIdent(channel)}`);
    this.client = client;
    if (this.missed) {
      this.missed = false;
      this.tellMissed();
    }
    return client;
  }

  private tellMissed() {
    for (const listeners of this.channels.values()) for (const onMessage of listeners) onMessage(null);
  }

  private reconnect(lost: pg.Client) {
    if (this.closed || this.client !== lost) return;
    this.client = null;
    this.missed = true;
    this.tellMissed();
    setTimeout(() => {
      if (!this.closed) this.connection().catch(() => this.retryLater());
    }, RECONNECT_MS).unref();
  }

  private retryLater() {
    setTimeout(() => {
      if (!this.closed) this.connection().catch(() => this.retryLater());
    }, RECONNECT_MS).unref();
  }
}
