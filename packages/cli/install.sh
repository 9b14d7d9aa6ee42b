#!/bin/sh
# Installs the plinth command-line client from a release index.
#   PLINTH_RELEASE_URL  release index (index.json) or the directory holding it; http(s):// or file:// (required)
#   PLINTH_VERSION      release to install (default: the latest)
#   PLINTH_INSTALL_DIR  where to install (default: $HOME/.plinth); the command is $PLINTH_INSTALL_DIR/bin/plinth
# Needs Node.js 20 or newer and tar. Nothing is fetched but the release index and tarball, from
# PLINTH_RELEASE_URL only; it is recorded in $PLINTH_INSTALL_DIR/release-url, where `plinth update`
# and the daily update check look (there is no built-in address).
set -eu

RELEASE_URL="${PLINTH_RELEASE_URL:-}"
VERSION="${PLINTH_VERSION:-latest}"
DIR="${PLINTH_INSTALL_DIR:-$HOME/.plinth}"

[ -n "$RELEASE_URL" ] || { echo "install.sh: set PLINTH_RELEASE_URL to the release location (index.json or the directory holding it)" >&2; exit 1; }
command -v node >/dev/null 2>&1 || { echo "install.sh: plinth needs Node.js 20 or newer (node not found)" >&2; exit 1; }
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || { echo "install.sh: plinth needs Node.js 20 or newer" >&2; exit 1; }

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT INT TERM

# Node reads the index and downloads the tarball (http, https or file), checking its sha256.
RESOLVED="$(node --input-type=module - "$RELEASE_URL" "$VERSION" "$TMP/release.tgz" <<'JS'
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const [source, wanted, target] = process.argv.slice(2);
const indexUrl = source.endsWith('.json') ? source : `${source.replace(/\/+$/, '')}/index.json`;
// A location that cannot be read ends the install with one line naming it, not a stack trace.
const get = async (url) => {
  try {
    if (url.startsWith('file:')) return readFileSync(fileURLToPath(url));
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    console.error(`install.sh: cannot read ${url}: ${error.cause?.message ?? error.message}`);
    process.exit(1);
  }
};
const index = JSON.parse((await get(indexUrl)).toString('utf8'));
const version = wanted === 'latest' ? index.latest : wanted.replace(/^v/, '');
const release = index.releases?.[version];
if (!release) { console.error(`install.sh: no release ${version} at ${indexUrl} (available: ${Object.keys(index.releases ?? {}).join(', ')})`); process.exit(1); }
const tarball = await get(new URL(release.tarball, indexUrl).toString());
if (release.sha256 && createHash('sha256').update(tarball).digest('hex') !== release.sha256) { console.error('install.sh: checksum mismatch'); process.exit(1); }
writeFileSync(target, tarball);
console.log(version);
JS
)"

mkdir -p "$DIR/versions/$RESOLVED.tmp" "$DIR/bin"
tar -xzf "$TMP/release.tgz" -C "$DIR/versions/$RESOLVED.tmp" --strip-components=1
rm -rf "$DIR/versions/$RESOLVED"
mv "$DIR/versions/$RESOLVED.tmp" "$DIR/versions/$RESOLVED"
chmod +x "$DIR/versions/$RESOLVED/dist/main.js"
ln -sfn "../versions/$RESOLVED/dist/main.js" "$DIR/bin/plinth"
printf '%s\n' "$RELEASE_URL" > "$DIR/release-url"

echo "Installed plinth $RESOLVED to $DIR/bin/plinth"
case ":$PATH:" in
  *":$DIR/bin:"*) ;;
  *) echo "Add it to your PATH: export PATH=\"$DIR/bin:\$PATH\"" ;;
esac
