#!/usr/bin/env node
// Bundles acp.ts (and everything it imports, including literal dynamic
// imports such as import('./deliverable-types/index.ts')) into one ESM file,
// dist/acp.mjs, runnable by plain Node >= 20.19. Uses the bun binary that
// the `bun` devDependency installs into node_modules (no global install).
//
//   node scripts/build.mjs            -> dist/acp.mjs
//   node scripts/build.mjs --compile  -> also dist/acp (standalone binary)
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bun = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'bun.exe' : 'bun');
if (!existsSync(bun)) {
  console.error(`build: ${bun} not found; run npm ci first`);
  process.exit(1);
}

function run(args) {
  const r = spawnSync(bun, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    process.stdout.write(r.stdout ?? '');
    console.error(`build: bun ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

mkdirSync(join(root, 'dist'), { recursive: true });
const out = join(root, 'dist', 'acp.mjs');
run(['build', 'acp.ts', '--target=node', '--format=esm', '--outfile', out]);

// bun keeps the entry's shebang; add one if acp.ts has none.
const code = readFileSync(out, 'utf8');
if (!code.startsWith('#!')) writeFileSync(out, `#!/usr/bin/env node\n${code}`);
chmodSync(out, 0o755);

if (process.argv.includes('--compile')) {
  run(['build', 'acp.ts', '--compile', '--outfile', join(root, 'dist', 'acp')]);
}
