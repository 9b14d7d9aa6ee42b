/**
 * The shell blocks of the README, as a newcomer meets them: every fenced `sh`, `bash` or `shell`
 * block in document order, with what the HTML comment right before its fence tells the README
 * test to do with it:
 *
 *   <!-- readme-test: skip (needs github.com) -->        not run; reported with its reason
 *   <!-- readme-test: server (starts the server) -->     the test (re)starts its own server instead,
 *                                                        with the NAME=value settings before `npm start`
 *   <!-- readme-test: stopped (reason) -->               run while the test's server is stopped; the
 *                                                        test starts it again afterwards
 *
 * A reason is required, so every block the test does not run as written says why.
 */

export type Directive = 'run' | 'skip' | 'server' | 'stopped';

export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  /** The `## ` or `### ` heading the block sits under. */
  heading: string;
  body: string;
  directive: Directive;
  reason: string;
}

const SHELLS = new Set(['sh', 'bash', 'shell']);
const MARKER = /^<!--\s*readme-test:\s*(\w+)\s*\((.+)\)\s*-->$/;

/** Throws, naming the line, on a fence that never closes or a marker the test does not know. */
export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (/^#{1,6} /.test(text)) heading = text;
    const open = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(text);
    if (!open) continue;
    const fence = open[1]!;
    const end = lines.findIndex((candidate, j) => j > i && candidate.trimEnd() === fence);
    if (end < 0) throw new Error(`README line ${i + 1}: the code fence is never closed`);
    const body = lines.slice(i + 1, end);
    // A fence left open swallows prose up to the next block's closing fence: headings and the next
    // opening fence then render as code.
    const swallowed = body.findIndex((inner) => /^(`{3,}|~{3,})/.test(inner) || /^#{2,6} /.test(inner));
    if (swallowed >= 0) throw new Error(`README line ${i + 1}: the code fence is not closed before line ${i + 2 + swallowed}`);
    if (SHELLS.has(open[2]!)) blocks.push({ line: i + 1, heading, body: body.join('\n'), ...directiveBefore(lines, i) });
    i = end;
  }
  return blocks;
}

function directiveBefore(lines: string[], fence: number): { directive: Directive; reason: string } {
  let i = fence - 1;
  while (i >= 0 && lines[i]!.trim() === '') i--;
  const text = (lines[i] ?? '').trim();
  if (!text.startsWith('<!--') || !text.includes('readme-test')) return { directive: 'run', reason: '' };
  const marker = MARKER.exec(text);
  const directive = marker?.[1];
  if (directive !== 'skip' && directive !== 'server' && directive !== 'stopped') {
    throw new Error(`README line ${i + 1}: "${text}" is not <!-- readme-test: skip|server|stopped (reason) -->`);
  }
  return { directive, reason: marker![2]!.trim() };
}

/** The settings a `server` block gives `npm start` (`NAME=value npm start`), for the test's own server. */
export function serverSettings(block: ReadmeBlock): Record<string, string> {
  const start = /((?:[A-Z][A-Z0-9_]*=\S+\s+)*)npm start\b/.exec(block.body);
  if (!start) throw new Error(`README line ${block.line}: a server block must run npm start`);
  return Object.fromEntries(
    start[1]!
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((setting) => [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1)]),
  );
}
