import { PassThrough } from 'node:stream';

/** The body of a chat answer: one JSON object per line, written as it happens. */
export class LineStream extends PassThrough {
  line(line: Record<string, unknown>): void {
    if (!this.writableEnded && !this.destroyed) this.write(`${JSON.stringify(line)}\n`);
  }
}

/**
 * Turns streaming in this process, by thread and messageId: a repeated request with the same
 * messageId (a client retrying after a dropped connection) is given what was sent so far and then
 * follows the turn, instead of asking the LLM again (Cube's idempotency).
 */
export class LiveTurns {
  private readonly turns = new Map<string, { lines: Record<string, unknown>[]; followers: Set<LineStream> }>();

  start(key: string): (line: Record<string, unknown> | null) => void {
    const turn = { lines: [] as Record<string, unknown>[], followers: new Set<LineStream>() };
    this.turns.set(key, turn);
    return (line) => {
      if (line === null) {
        this.turns.delete(key);
        for (const follower of turn.followers) follower.end();
        return;
      }
      turn.lines.push(line);
      for (const follower of turn.followers) follower.line(line);
    };
  }

  /** Replays a live turn into `out` and follows it; false when no such turn streams here. */
  follow(key: string, out: LineStream): boolean {
    const turn = this.turns.get(key);
    if (!turn) return false;
    for (const line of turn.lines) out.line(line);
    turn.followers.add(out);
    out.on('close', () => turn.followers.delete(out));
    return true;
  }
}
