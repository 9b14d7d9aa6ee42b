/**
 * How long a pool thread may sit idle before it ends. Each holds an isolate with what its tasks
 * loaded (some 20 MiB with the engine) that most of a server's life has no use for; starting
 * another costs about 100 ms on the next task, and tasks come in bursts (a deploy's build, a new
 * build's first queries), which a warm thread then serves.
 */
export const THREAD_IDLE_MS = 10_000;

/** Calls `onIdle` once `ms` have passed since `idle()` without a `busy()` in between. */
export class IdleTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {}

  busy(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  idle(): void {
    this.busy();
    // Never what keeps a process alive.
    this.timer = setTimeout(this.onIdle, this.ms).unref();
  }
}
