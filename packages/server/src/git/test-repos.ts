import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** A real git repository on disk for tests: what a sync or import clones from. */
export interface TestGitRepo {
  dir: string;
  /** Writes files (null deletes one), commits them on the current branch and answers the new SHA. */
  commit(files: Record<string, string | null>, message: string): Promise<string>;
  /** An annotated tag at the current commit. */
  tag(name: string): Promise<void>;
  /** Creates a branch at the current commit and switches to it, so later commits land there. */
  branch(name: string): Promise<void>;
  /** Switches to an existing branch. */
  checkout(name: string): Promise<void>;
  head(): Promise<string>;
  remove(): Promise<void>;
}

export async function createGitRepo(files: Record<string, string>, options: { branch?: string } = {}): Promise<TestGitRepo> {
  const dir = await mkdtemp(join(tmpdir(), 'plinth-test-repo-'));
  const git = async (...args: string[]) => (await exec('git', args, { cwd: dir, env: gitEnv() })).stdout.trim();
  await git('init', '--quiet', '--initial-branch', options.branch ?? 'main');
  const repo: TestGitRepo = {
    dir,
    async commit(changes, message) {
      for (const [path, content] of Object.entries(changes)) {
        const target = join(dir, path);
        if (content === null) await rm(target, { force: true });
        else {
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, content);
        }
      }
      await git('add', '--all');
      await git('commit', '--quiet', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    tag: async (name) => void (await git('tag', '-a', name, '-m', name)),
    branch: async (name) => void (await git('checkout', '--quiet', '-b', name)),
    checkout: async (name) => void (await git('checkout', '--quiet', name)),
    head: () => git('rev-parse', 'HEAD'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  await repo.commit(files, 'Initial commit');
  return repo;
}

function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Plinth Test',
    GIT_AUTHOR_EMAIL: 'test@plinth.example',
    GIT_COMMITTER_NAME: 'Plinth Test',
    GIT_COMMITTER_EMAIL: 'test@plinth.example',
  };
}
