import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONTEXT_TITLES, KEYWORDS, type ContextName, type Support } from './keywords.js';

export const README_BEGIN = '<!-- keywords:begin (generated from src/compiler/keywords.ts; a test checks it) -->';
export const README_END = '<!-- keywords:end -->';

const STATUS: Record<Support, string> = {
  supported: 'supported',
  accepted: 'accepted, no effect',
  unsupported: '**not supported**: compile error',
};

function camelCase(keyword: string): string {
  return keyword.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The README section listing every keyword of the data model, one table per place in a model file. */
export function keywordsReadme(): string {
  const sections = (Object.keys(KEYWORDS) as ContextName[]).map((context) => {
    const rows = Object.entries(KEYWORDS[context])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([keyword, spec]) => {
        const camel = camelCase(keyword);
        const spelled = camel === keyword ? `\`${keyword}\`` : `\`${keyword}\` / \`${camel}\``;
        return `| ${spelled} | ${STATUS[spec.support]} | ${spec.note ?? ''} |`;
      });
    return [`### ${CONTEXT_TITLES[context]}`, '', '| Keyword | Status | Notes |', '| --- | --- | --- |', ...rows].join('\n');
  });
  return [README_BEGIN, ...sections, README_END].join('\n\n');
}

/** `npx tsx packages/semantic/src/compiler/keywords-readme.ts` rewrites the section in README.md. */
function rewriteReadme(): void {
  const path = fileURLToPath(new URL('../../README.md', import.meta.url));
  const readme = readFileSync(path, 'utf8');
  const start = readme.indexOf(README_BEGIN);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < 0) throw new Error(`${path} has no ${README_BEGIN} … ${README_END} section`);
  writeFileSync(path, `${readme.slice(0, start)}${keywordsReadme()}${readme.slice(end + README_END.length)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) rewriteReadme();
