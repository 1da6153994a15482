#!/usr/bin/env node
// Builds the distributables with the bun binary that the `bun`
// devDependency installs into node_modules (no global install):
//
//   dist/core.mjs      acp.ts and what every command needs at start, one
//                      copy of each module, which the chunks import
//   dist/lib.mjs       the library (the package's main export): acp.ts's
//                      exports, from core.mjs
//   dist/acp.mjs       the bin: turns on Node's compile cache (Node >= 22.1),
//                      then imports core.mjs and runs the CLI; runs unchanged on
//                      Node >= 20.19, Bun and Deno
//   dist/chunks/*.mjs  the lazily imported rest (server, doctor, report with
//                      markdown-it, git, valibot, yaml…), each loaded by the
//                      command that needs it (see scripts/bundle.ts)
//   dist/acp-mcp.mjs   the MCP server of `acp mcp` with the MCP SDK, loaded by
//                      that command only
//   dist/acp           standalone executable (`bun build --compile`, minified,
//                      split into lazily loaded modules, with bytecode for a
//                      faster start); needs no runtime
//
//   node scripts/build.mjs                 -> all of the above
//   node scripts/build.mjs --no-compile    -> without dist/acp (~0.3 s)
//   node scripts/build.mjs --types         -> also dist/types/*.d.ts (tsc, for
//     library users of the npm package; `npm pack` runs it via prepack)
//   node scripts/build.mjs --target=T      -> also dist/acp-T for another platform
//     (repeatable) T is a bun target: bun-linux-x64, bun-linux-arm64,
//     bun-linux-x64-musl, bun-linux-arm64-musl, bun-linux-x64-baseline,
//     bun-darwin-x64, bun-darwin-arm64, bun-windows-x64 (writes dist/acp-T.exe).
//     Cross-compiling downloads that target's bun runtime from npm once.
//   node scripts/build.mjs --skill         -> only skills/agent-collaboration/scripts/acp.mjs,
//     the skill's runtime in one file (`npm run build:skill`; committed, so
//     rebuilt when the version changes, not on every change)
//
// Each output is made in a scratch directory under the name it will have
// (a compiled binary embeds its file name) and renamed into place, so a
// concurrent run of dist/ never sees a half-written file.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bun = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'bun.exe' : 'bun');
if (!existsSync(bun)) {
  console.error(`build: ${bun} not found; run npm ci first`);
  process.exit(1);
}

const args = process.argv.slice(2);
const known = (a) => ['--no-compile', '--types', '--skill'].includes(a) || a.startsWith('--target=');
const unknown = args.filter((a) => !known(a));
if (unknown.length) {
  console.error(`build: unknown argument(s) ${unknown.join(' ')} (see the header of scripts/build.mjs)`);
  process.exit(2);
}
const targets = args.filter((a) => a.startsWith('--target=')).map((a) => a.slice('--target='.length));

function run(args) {
  const r = spawnSync(bun, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    process.stdout.write(r.stdout ?? '');
    console.error(`build: bun ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

/** A scratch directory beside `dir` for `use(scratch)`, removed afterwards. */
function withScratch(dir, use) {
  const scratch = join(dir, `.build-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    return use(scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Move `name` from `scratch` into `dir`, replacing the old one in one step. */
function place(scratch, dir, name, mode = 0o644) {
  mkdirSync(dirname(join(dir, name)), { recursive: true });
  chmodSync(join(scratch, name), mode);
  renameSync(join(scratch, name), join(dir, name));
}

const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

if (args.includes('--skill')) {
  const scripts = join(root, 'skills', 'agent-collaboration', 'scripts');
  withScratch(scripts, (scratch) => {
    run(['scripts/bundle.ts', '--single', join(scratch, 'acp.mjs')]);
    place(scratch, scripts, 'acp.mjs', 0o755);
  });
  process.exit(0);
}

// The chunks and the MCP server first, the core and the library next, the bin last: a new
// file never meets an older or missing one that it imports. Chunks the new
// build no longer has are removed at the end.
withScratch(dist, (scratch) => {
  run(['scripts/bundle.ts', scratch]);
  const chunks = readdirSync(join(scratch, 'chunks')).sort();
  for (const name of [...chunks.map((chunk) => `chunks/${chunk}`), 'acp-mcp.mjs', 'core.mjs', 'lib.mjs']) place(scratch, dist, name);
  place(scratch, dist, 'acp.mjs', 0o755);
  for (const name of readdirSync(join(dist, 'chunks'))) if (!chunks.includes(name)) rmSync(join(dist, 'chunks', name), { force: true });
  // What a 0.1 build left (the script start path and its launcher): a checkout that builds again must not ship it.
  for (const name of ['acp-core.js', 'acp-core.js.cache', 'acp.cjs']) rmSync(join(dist, name), { force: true });
});

// --bytecode precompiles the bundle (ESM bytecode needs --format=esm): start-up
// of `dist/acp validate` drops by about half compared with plain --compile.
// --splitting embeds one module per lazily imported part (the library, the
// server, the MCP SDK, markdown-it…), each with its own bytecode, instead of
// one bundle: a start loads and evaluates only the modules its command
// imports (`--version` none of the library: -4 ms CPU, `next` -3 ms).
// --no-compile-autoload-dotenv and --no-compile-autoload-bunfig: Bun's default
// for an executable reads `.env` and `bunfig.toml` from the working directory,
// a place other users and agents can write (a shared folder, a checkout): a
// bunfig.toml's `preload` would run its code as us, a `.env` would set ACP_*
// for us. acp reads neither; without them, no directory is scanned at start.
// --compile-jit-policy=4 raises the JIT's tier-up thresholds: a command runs
// for ~20 ms, too short for compiling its code to pay off (-4 ms CPU for an
// append; loops over long logs still get compiled). See docs/performance.md.
function compile(name, target) {
  const flags = ['--compile', '--splitting', '--minify', '--bytecode', '--format=esm', '--no-compile-autoload-dotenv', '--no-compile-autoload-bunfig', '--compile-jit-policy=4', ...(target ? [`--target=${target}`] : [])];
  withScratch(dist, (scratch) => {
    // bun appends .exe itself for Windows targets.
    run(['build', 'runtime/bin.ts', ...flags, '--outfile', join(scratch, name.replace(/\.exe$/, ''))]);
    place(scratch, dist, name, 0o755);
  });
}

if (!args.includes('--no-compile')) compile('acp');
for (const target of targets) compile(`acp-${target}${target.startsWith('bun-windows') ? '.exe' : ''}`, target);

// Declarations for the package's users: plain .d.ts beside the JS, so a
// consumer needs neither allowImportingTsExtensions nor our sources.
if (args.includes('--types')) {
  rmSync(join(dist, 'types'), { recursive: true, force: true });
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join('scripts', 'tsconfig.types.json')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('build: tsc -p scripts/tsconfig.types.json failed');
    process.exit(r.status ?? 1);
  }
  // PluginContext.valibot is typed `typeof import('valibot')`, and valibot is
  // bundled, not a dependency: a consumer type-checking our declarations
  // (skipLibCheck off) would fail to resolve it. The module is loosely typed
  // there instead; a plugin author who wants valibot's types imports valibot.
  // The public types live in runtime/types.ts; acp.ts re-exports them.
  for (const types of [join(dist, 'types', 'acp.d.ts'), join(dist, 'types', 'runtime', 'types.d.ts')]) {
    writeFileSync(types, readFileSync(types, 'utf8').replaceAll("typeof import('valibot')", '{ readonly [name: string]: any }'));
  }
}
