#!/usr/bin/env node
// Replays the conformance scenarios against the CLI and prints a summary.
// Thin wrapper: runs test/conformance/replay-cli.ts with the project's local
// bun (Node 20 cannot run TypeScript directly). Options: see replay-cli.ts,
// e.g.  node scripts/replay.mjs --runtime node --seed 1007 --show 5
// It rebuilds dist/ first unless --no-build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bun = join(root, 'node_modules', '.bin', 'bun');
if (!existsSync(bun)) {
  console.error(`replay: ${bun} not found; run npm ci first`);
  process.exit(1);
}
// Rebuild dist/ first (dist/acp.mjs, and dist/acp for --runtime binary)
// unless --no-build or a custom --cmd / --dir is given.
const args = process.argv.slice(2);
const noBuild = args.includes('--no-build');
const passArgs = args.filter((a) => a !== '--no-build');
const custom = passArgs.some((a) => a === '--cmd' || a.startsWith('--cmd=') || a === '--dir' || a.startsWith('--dir='));
if (!noBuild && !custom && existsSync(join(root, 'acp.ts'))) {
  const compile = passArgs.join(' ').includes('binary') ? [] : ['--no-compile'];
  const b = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), ...compile], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const r = spawnSync(bun, [join(root, 'test', 'conformance', 'replay-cli.ts'), ...passArgs], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
