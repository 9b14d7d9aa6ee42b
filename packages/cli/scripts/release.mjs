#!/usr/bin/env node
// Packs a self-contained release of plinth (npm-style tarball with its dependencies bundled, so
// installing needs no registry) and writes or extends the release index beside it.
//   node packages/cli/scripts/release.mjs <out-dir> [--version X.Y.Z]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(cli, '../..');
const [outArg, ...rest] = process.argv.slice(2);
if (!outArg) {
  console.error('usage: release.mjs <out-dir> [--version X.Y.Z]');
  process.exit(2);
}
const out = resolve(outArg);
const pkg = JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8'));
const version = rest[0] === '--version' && rest[1] ? rest[1] : pkg.version;

execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', cli], { stdio: 'inherit' });

const stage = mkdtempSync(join(tmpdir(), 'plinth-release-'));
try {
  cpSync(join(cli, 'dist'), join(stage, 'dist'), {
    recursive: true,
    filter: (f) => !f.endsWith('.tsbuildinfo') && !f.includes('test-support') && !/\.test\./.test(f),
  });
  // tsc writes 0644; the bin of the release must be executable however it is unpacked.
  chmodSync(join(stage, 'dist', 'main.js'), 0o755);
  cpSync(join(cli, 'install.sh'), join(stage, 'install.sh'));
  const runtime = ['commander', 'smol-toml'];
  for (const dep of runtime) {
    const from = [join(cli, 'node_modules', dep), join(root, 'node_modules', dep)].find((p) => existsSync(p));
    if (!from) throw new Error(`dependency ${dep} is not installed`);
    cpSync(from, join(stage, 'node_modules', dep), { recursive: true });
  }
  const dependencies = Object.fromEntries(runtime.map((d) => [d, pkg.dependencies[d]]));
  const staged = {
    name: 'plinth-cli',
    version,
    description: pkg.description,
    type: 'module',
    bin: { plinth: 'dist/main.js' },
    engines: pkg.engines,
    dependencies,
    bundleDependencies: runtime,
    license: 'UNLICENSED',
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: stage, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop();
  const sha256 = createHash('sha256')
    .update(readFileSync(join(out, name)))
    .digest('hex');
  const indexFile = join(out, 'index.json');
  const index = existsSync(indexFile) ? JSON.parse(readFileSync(indexFile, 'utf8')) : { latest: version, releases: {} };
  index.releases[version] = { tarball: name, sha256 };
  const newest = Object.keys(index.releases)
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    .pop();
  index.latest = newest;
  writeFileSync(indexFile, `${JSON.stringify(index, null, 2)}\n`);
  console.log(join(out, name));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
