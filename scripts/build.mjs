#!/usr/bin/env node
// Builds the two distributables with the bun binary that the `bun`
// devDependency installs into node_modules (no global install):
//
//   dist/acp.mjs  the launcher (ESM; runs unchanged on Node >= 20.19, Bun and
//                 Deno) of dist/acp-core.js: acp.ts plus what every command
//                 needs at start, as a script, so that Node can compile it
//                 with the V8 code cache dist/acp-core.js.cache (see
//                 scripts/start-path.mjs).
//   dist/chunks/*.mjs  the lazily imported rest (server, doctor, report with
//                 markdown-it, git, valibot, yaml…), each loaded by the
//                 command that needs it (see scripts/bundle.ts). The small
//                 ones ship as scripts instead, dist/chunks/*.js, which the
//                 launchers load without Node's ES module loader. The launchers, the
//                 core and the chunks are copied to skills/agent-collaboration/scripts/.
//   dist/acp-mcp.mjs  the MCP server of `acp mcp` with the MCP SDK, loaded
//                 by that command only.
//   dist/acp      standalone executable (`bun build --compile`, minified, with
//                 bytecode for a faster start); needs no runtime installed.
//
//   node scripts/build.mjs                 -> dist/acp.mjs and dist/acp
//   node scripts/build.mjs --no-compile    -> dist/acp.mjs only (~0.3 s)
//   node scripts/build.mjs --types         -> also dist/types/*.d.ts (tsc, for
//     library users of the npm package; `npm pack` runs it via prepack)
//   node scripts/build.mjs --target=T      -> also dist/acp-T for another platform
//     (repeatable) T is a bun target: bun-linux-x64, bun-linux-arm64,
//     bun-linux-x64-musl, bun-linux-arm64-musl, bun-linux-x64-baseline,
//     bun-darwin-x64, bun-darwin-arm64, bun-windows-x64 (writes dist/acp-T.exe).
//     Cross-compiling downloads that target's bun runtime from npm once.
//
// `--compile` is accepted for compatibility (compiling is the default).
// Outputs are written to a temporary name and renamed into place, so a
// concurrent run of dist/acp or dist/acp.mjs never sees a half-written file.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_FILE, CORE_FILE, cacheFits, chunkKey, cjsLauncher, launcher, makeCodeCaches, toScript } from './start-path.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bun = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'bun.exe' : 'bun');
if (!existsSync(bun)) {
  console.error(`build: ${bun} not found; run npm ci first`);
  process.exit(1);
}

const args = process.argv.slice(2);
const known = (a) => a === '--compile' || a === '--no-compile' || a === '--types' || a.startsWith('--target=');
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

/**
 * Chunks up to this size get a script form for acp.cjs (a CommonJS program's
 * first import() starts Node's ES module loader, ~5 ms). The larger ones
 * (the server, the report, yaml, valibot) cost more to compile than that
 * and stay modules only.
 */
const SCRIPT_CHUNK_MAX_BYTES = 64 * 1024;

const tmpSuffix = `.tmp-${process.pid}`;
/** Build into `final + tmpSuffix` with `build(tmp)`, then rename over `final`. */
function atomically(final, build) {
  const tmp = final + tmpSuffix;
  try {
    build(tmp);
    chmodSync(tmp, 0o755);
    renameSync(tmp, final);
  } finally {
    rmSync(tmp, { force: true });
  }
}

mkdirSync(join(root, 'dist'), { recursive: true });
// The bundles are built into a scratch directory (scripts/bundle.ts), then
// renamed into place: acp-mcp.mjs and the chunks first, so a new acp.mjs never
// meets an old or missing file it imports. Chunks the new build no longer has
// are removed last.
const scratch = join(root, 'dist', `.bundle${tmpSuffix}`);
const skillScripts = join(root, 'skills', 'agent-collaboration', 'scripts');
let chunks = [];
try {
  run(['scripts/bundle.ts', scratch]);
  const modules = readdirSync(join(scratch, 'chunks')).filter((name) => name.endsWith('.mjs')).sort();
  chunks = (await startPath(scratch, modules)).sort();
  mkdirSync(join(root, 'dist', 'chunks'), { recursive: true });
  // The launcher last: it must never meet an older core than its own.
  for (const name of ['acp-mcp.mjs', ...chunks.map((chunk) => `chunks/${chunk}`), CORE_FILE, CACHE_FILE, 'acp.cjs', 'acp.mjs']) {
    atomically(join(root, 'dist', name), (tmp) => writeFileSync(tmp, readFileSync(join(scratch, name))));
  }
  removeStaleChunks(join(root, 'dist', 'chunks'), chunks);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/**
 * Turn `dir`/acp.mjs (the ESM start bundle) into acp-core.js and its
 * launchers, the small chunks into scripts (replacing their modules), and
 * give them code caches. Returns the files of chunks/: the remaining
 * modules, the scripts and their caches.
 */
async function startPath(dir, chunkNames) {
  const core = await toScript(readFileSync(join(dir, 'acp.mjs'), 'utf8'));
  writeFileSync(join(dir, CORE_FILE), core.script);
  const { scripts, builtins } = await chunkScripts(dir, chunkNames);
  const modules = chunkNames.filter((name) => !scripts.includes(name));
  const chunks = ['acp-mcp.mjs', ...modules.map((chunk) => `chunks/${chunk}`)];
  const scriptNames = scripts.map((name) => `chunks/${name}`);
  // Bun and Deno import every builtin a script requires up front (a require is synchronous).
  writeFileSync(join(dir, 'acp.mjs'), launcher({ exports: core.exports, builtins: [...new Set([...core.builtins, ...builtins])].sort(), chunks, scripts: scriptNames }));
  writeFileSync(join(dir, 'acp.cjs'), cjsLauncher({ chunks, scripts: scriptNames }));
  const caches = codeCaches(dir);
  for (const [name, bytes] of caches) writeFileSync(join(dir, name), bytes);
  const chunkFiles = [...modules, ...scripts.map((name) => name.replace(/\.mjs$/, '.js')), ...[...caches.keys()].filter((name) => name.startsWith('chunks/')).map((name) => name.slice('chunks/'.length))];
  return chunkFiles;
}

/**
 * The code caches of the scripts in `dir` (acp-core.js and the chunks/*.js
 * the warm-up loads). V8's caches differ from run to run, so a cache that
 * still fits its script (same bytes, same V8, accepted) is kept: the
 * skill's committed one first, then dist/'s; only a changed script or
 * another Node makes a new one. That keeps the skill's copies stable in git.
 */
function codeCaches(dir) {
  const made = makeCodeCaches(dir);
  const fitting = (name) => {
    const script = readFileSync(join(dir, name.replace(/\.cache$/, '')));
    return [join(skillScripts, name), join(root, 'dist', name)].filter((file) => existsSync(file)).map((file) => readFileSync(file)).find((cache) => cacheFits(cache, script));
  };
  return new Map([...made].map(([name, bytes]) => [name, fitting(name) ?? bytes]));
}

/**
 * Replace chunks/x.mjs by its script form chunks/x.js for the small chunks;
 * returns their .mjs names (the names the bundle imports them by) and the
 * builtins they require. A script chunk's static imports must be script
 * chunks too (they are loaded through the launcher).
 */
async function chunkScripts(dir, chunkNames) {
  const small = chunkNames.filter((name) => statSync(join(dir, 'chunks', name)).size <= SCRIPT_CHUNK_MAX_BYTES);
  const builtins = new Set();
  for (const name of small) {
    const code = readFileSync(join(dir, 'chunks', name), 'utf8');
    const js = name.replace(/\.mjs$/, '.js');
    const made = await toScript(code, { key: chunkKey(`./chunks/${js}`), filename: `chunks/${js}`, chunk: true });
    const outside = made.statics.filter((specifier) => !small.includes(specifier.replace(/^\.\//, '')));
    if (outside.length) throw new Error(`chunks/${name} imports ${outside.join(', ')} statically, which has no script form`);
    for (const builtin of made.builtins) builtins.add(builtin);
    writeFileSync(join(dir, 'chunks', js), made.script);
    rmSync(join(dir, 'chunks', name));
  }
  return { scripts: small, builtins: [...builtins] };
}

/** Delete the chunk files (.mjs, the .js script forms and their .js.cache) of `dir` that are not in `keep`. */
function removeStaleChunks(dir, keep) {
  for (const name of readdirSync(dir)) if (/\.(m?js|js\.cache)$/.test(name) && !keep.includes(name)) rmSync(join(dir, name), { force: true });
}

// The skill carries the runtime: keep its copy of dist/acp.mjs, acp-core.js
// with its cache, and the chunks identical to dist/ (test/skill.test.ts fails when a committed copy is stale).
// acp-mcp.mjs stays out of the skill (`acp mcp` says so when it is missing).
if (existsSync(skillScripts)) {
  mkdirSync(join(skillScripts, 'chunks'), { recursive: true });
  for (const name of [...chunks.map((chunk) => `chunks/${chunk}`), CORE_FILE, CACHE_FILE, 'acp.cjs', 'acp.mjs']) {
    const fresh = readFileSync(join(root, 'dist', name));
    const copy = join(skillScripts, name);
    if (!existsSync(copy) || !readFileSync(copy).equals(fresh)) atomically(copy, (tmp) => writeFileSync(tmp, fresh));
  }
  removeStaleChunks(join(skillScripts, 'chunks'), chunks);
}

// --bytecode precompiles the bundle (ESM bytecode needs --format=esm): start-up
// of `dist/acp validate` drops by about half compared with plain --compile.
// --compile-jit-policy=4 raises the JIT's tier-up thresholds: a command runs
// for ~20 ms, too short for compiling its code to pay off (-4 ms CPU for an
// append; loops over long logs still get compiled). See BENCHMARKS.md.
const compile = (outfile, target) =>
  run(['build', 'acp.ts', '--compile', '--minify', '--bytecode', '--format=esm', '--compile-jit-policy=4', ...(target ? [`--target=${target}`] : []), '--outfile', outfile]);

if (!args.includes('--no-compile')) atomically(join(root, 'dist', 'acp'), (tmp) => compile(tmp));
for (const target of targets) {
  const exe = target.startsWith('bun-windows') ? '.exe' : '';
  // bun appends .exe itself for Windows targets.
  atomically(join(root, 'dist', `acp-${target}${exe}`), (tmp) => {
    compile(tmp, target);
    if (exe && existsSync(tmp + exe)) renameSync(tmp + exe, tmp);
  });
}

// Declarations for the package's users: plain .d.ts beside the JS, so a
// consumer needs neither allowImportingTsExtensions nor our sources.
if (args.includes('--types')) {
  rmSync(join(root, 'dist', 'types'), { recursive: true, force: true });
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
  const types = join(root, 'dist', 'types', 'acp.d.ts');
  writeFileSync(types, readFileSync(types, 'utf8').replaceAll("typeof import('valibot')", '{ readonly [name: string]: any }'));
}
