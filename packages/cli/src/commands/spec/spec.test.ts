import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth spec, api and completion', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

  it('4.8 spec: lists METHOD, PATH, SUMMARY filtered case-insensitively on method, path, summary and operation id', async () => {
    const byId = await plinth(['spec', 'GETOAUTHINTEGRATION'], { env: env() });
    expect(byId.stdout).toBe(
      ['METHOD  PATH                             SUMMARY', 'GET     /api/v1/oauth-integrations/{id}  Get an OAuth integration', ''].join(
        '\n',
      ),
    );
    const byPath = await plinth(['spec', 'oauth-integrations'], { env: env() });
    expect(byPath.stdout.trim().split('\n')).toHaveLength(6);
    const byMethod = await plinth(['spec', 'delete'], { env: env() });
    expect(
      byMethod.stdout
        .split('\n')
        .slice(1, -1)
        .every((line) => line.startsWith('DELETE') || /delete/i.test(line)),
    ).toBe(true);
    const none = await plinth(['spec', 'no-such-thing'], { env: env() });
    expect(none).toMatchObject({ code: 0, stdout: '', stderr: 'No results\n' });
  });

  it('4.8 spec --json: unfiltered is the whole document; filtered is a valid document with every referenced schema', async () => {
    const whole = await plinth(['spec', '--json'], { env: env() });
    const served = await (await fetch(`${ctx().url}/api/v1/spec`)).text();
    expect(whole.stdout).toBe(`${served}\n`);

    const filtered = await plinth(['spec', 'embed', '--json'], { env: env() });
    const doc = JSON.parse(filtered.stdout);
    expect(Object.keys(doc.paths).every((p) => p.includes('embed'))).toBe(true);
    expect(doc.paths['/api/v1/embed/generate-session'].post.operationId).toBe('generateSession');
    expect(doc.paths['/api/v1/deployments']).toBeUndefined();
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['GenerateSessionInput', 'EmbedUserProfile', 'Error', 'PageInfo']),
    );
    expect(doc.components.schemas.OAuthIntegration).toBeUndefined();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);

    const one = JSON.parse((await plinth(['spec', 'getOAuthIntegration', '--json'], { env: env() })).stdout);
    expect(Object.keys(one.components.schemas).sort()).toEqual(['Error', 'OAuthIntegration']);
    expect((await new Validator().validate(one)).valid).toBe(true);
  });

  it('4.8 api: raw requests with -q, -d JSON, -d @file and -d -; non-zero on 4xx with the body printed', async () => {
    const created = await plinth(['api', 'POST', '/api/v1/user-groups', '-d', '{"name": "analysts"}'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'analysts', userCount: 0 });

    const dir = await mkdtemp(join(tmpdir(), 'plinth-api-'));
    await writeFile(join(dir, 'g.json'), '{"name": "from-file"}');
    const fromFile = await plinth(['api', 'post', '/api/v1/user-groups', '-d', `@${join(dir, 'g.json')}`], { env: env() });
    expect(JSON.parse(fromFile.stdout).name).toBe('from-file');
    const fromStdin = await plinth(['api', 'POST', '/api/v1/user-groups', '-d', '-'], { env: env(), stdin: '{"name": "from-stdin"}' });
    expect(JSON.parse(fromStdin.stdout).name).toBe('from-stdin');

    const page = await plinth(['api', 'GET', '/api/v1/user-groups', '-q', 'first=2'], { env: env() });
    const body = JSON.parse(page.stdout);
    expect(body.items.map((g: { name: string }) => g.name)).toEqual(['analysts', 'from-file']);
    expect(body.pageInfo.hasNextPage).toBe(true);

    const missing = await plinth(['api', 'GET', '/api/v1/user-groups/999999'], { env: env() });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ code: 'not_found' });
    expect(missing.stderr).toMatch(/^error: .*not found \(HTTP 404\)/);

    const badMethod = await plinth(['api', 'FETCH', '/x'], { env: env() });
    expect(badMethod).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'error: Unknown method "FETCH"; use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS\n\nUsage: plinth ',
      ),
    });
  });

  it('completion scripts are generated for bash, zsh and fish', async () => {
    const bash = await plinth(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('complete -F _plinth plinth');
    expect(bash.stdout).toContain('"scim users"|"scim users "*) words="list search get create replace patch delete"');
    expect(bash.stdout).toContain('"deployments create"|"deployments create "*) words="--name --region --data --json --context --help"');
    const dir = await mkdtemp(join(tmpdir(), 'plinth-completion-'));
    await writeFile(join(dir, 'plinth.bash'), bash.stdout);
    execFileSync('bash', ['-n', join(dir, 'plinth.bash')]);
    const words = execFileSync('bash', [
      '-c',
      `source ${join(dir, 'plinth.bash')}; COMP_WORDS=(plinth emb); COMP_CWORD=1; _plinth; echo "\${COMPREPLY[@]}"`,
    ]).toString();
    expect(words.trim()).toBe('embed');
    const verbs = execFileSync('bash', [
      '-c',
      `source ${join(dir, 'plinth.bash')}; COMP_WORDS=(plinth --context x users s); COMP_CWORD=4; _plinth; echo "\${COMPREPLY[@]}"`,
    ]).toString();
    expect(verbs.trim()).toBe('set-password');

    const zsh = await plinth(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef plinth\n/);
    expect(zsh.stdout).toContain('bashcompinit');
    const fish = await plinth(['completion', 'fish']);
    expect(fish.stdout).toContain(
      `complete -c plinth -f -n 'test "(__plinth_path)" = ""' -a 'deployments' -d 'Deployments: list, get, create, build status and builds'`,
    );
    expect(fish.stdout).toContain(`complete -c plinth -f -n 'test "(__plinth_path)" = "embed"' -a 'generate-session'`);
    const unknown = await plinth(['completion', 'tcsh']);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: Unknown shell "tcsh"; use bash, zsh or fish\n\nUsage: plinth '),
    });
  });
});
