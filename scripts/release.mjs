#!/usr/bin/env node
// `npm run build:release`: standalone binaries for the release, with SHA-256 sums.
//
//   dist/release/acp-linux-x64        dist/release/acp-darwin-arm64
//   dist/release/acp-linux-arm64      dist/release/acp-darwin-x64
//   dist/release/acp-windows-x64.exe  dist/release/SHA256SUMS
//
// Each target is `node scripts/build.mjs --no-compile --target=bun-…` (the
// same flags as dist/acp). Two builds of a target are byte-identical (the
// build embeds no temporary path); each run empties dist/release/ first. Cross-compiling makes bun fetch that target's
// runtime package from the npm registry once (then it is cached); a target
// whose runtime cannot be had is reported and skipped, and the run fails
// only when none was built. Only the binary for this machine's platform can
// be run here: the others are built, hashed and listed, not executed.
//
//   node scripts/release.mjs [--target=linux-x64 ...]   (default: all five)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ALL = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'windows-x64'];
const asked = process.argv.slice(2).filter((a) => a.startsWith('--target=')).map((a) => a.slice('--target='.length));
const unknown = [...asked.filter((t) => !ALL.includes(t)), ...process.argv.slice(2).filter((a) => !a.startsWith('--target='))];
if (unknown.length) {
  console.error(`release: unknown target or argument ${unknown.join(' ')} (targets: ${ALL.join(', ')})`);
  process.exit(2);
}
const targets = asked.length ? asked : ALL;
const out = join(root, 'dist', 'release');
// The folder holds this run's binaries and nothing else, so SHA256SUMS lists
// exactly its files (an older run's binary of another target would be an
// unlisted file, or listed under a hash nobody rebuilt).
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const built = [];
const failed = [];
for (const target of targets) {
  const exe = target.startsWith('windows') ? '.exe' : '';
  const produced = join(root, 'dist', `acp-bun-${target}${exe}`);
  const final = join(out, `acp-${target}${exe}`);
  rmSync(produced, { force: true });
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--no-compile', `--target=bun-${target}`], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(produced)) {
    const reason = `${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n').filter(Boolean).slice(-3).join(' | ') || `exit ${r.status}`;
    failed.push({ target, reason });
    console.error(`release: ${target}: not built (${reason})`);
    continue;
  }
  renameSync(produced, final);
  const sha256 = createHash('sha256').update(readFileSync(final)).digest('hex');
  built.push({ file: `acp-${target}${exe}`, sha256 });
  console.log(`release: ${target}: dist/release/acp-${target}${exe} ${sha256}`);
}
writeFileSync(join(out, 'SHA256SUMS'), built.map(({ file, sha256 }) => `${sha256}  ${file}\n`).join(''));
console.log(`release: built ${built.length} of ${targets.length}${failed.length ? `; not built: ${failed.map((f) => f.target).join(', ')}` : ''}; sums in dist/release/SHA256SUMS`);
process.exit(built.length ? 0 : 1);
