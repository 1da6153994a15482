// The Node start path with a V8 code cache, used by scripts/build.mjs.
//
// Why: Node 20 has no compile cache for ES modules (module.enableCompileCache
// arrived in Node 22.1), and compiling the ~200 kB start bundle plus the
// functions a command runs for the first time was ~40% of a small command
// (profiled with --cpu-prof). vm.Script accepts V8's code cache, but only for
// scripts. So the build turns the ESM start bundle into a script, warms it up
// by running a collaboration in-process, and stores the code cache beside it:
//
//   dist/acp.mjs            the launcher: reads acp-core.js, compiles it with
//                           the cache (Node) or imports it (Bun, Deno), and
//                           re-exports the library (the export list is generated)
//   dist/acp.cjs            the CLI launcher for Node (the bin): the same
//                           without Node's ES module loader
//   dist/acp-core.js        the start bundle as a script: an async function
//                           assigned to globalThis[Symbol.for('acp.core')]; also
//                           valid as an ES module, which is how Bun and Deno load it
//   dist/acp-core.js.cache  one JSON header line (the V8 version, the script's
//                           length), a copy of the script, and V8's code cache
//   dist/chunks/x.js        the small chunks as scripts instead of modules (a
//   dist/chunks/x.js.cache  CommonJS program's first import() starts Node's ES
//                           module loader, ~5 ms), loaded by both launchers,
//                           with caches for those the warm-up runs (status,
//                           log, doctor)
//
// The cache is only ever read, never written at run time: it ships with the
// code it belongs to and is as trusted as that code. V8 rejects a cache made
// by another V8 version or with other flags (the command then compiles as
// before). V8 itself checks only the script's length, so the launcher passes
// the cache only when its copy of the script equals acp-core.js byte for byte
// (a memcmp; hashing would load node:crypto or node:zlib, ~3 ms each): an
// edited acp-core.js never runs stale bytecode.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vm from 'node:vm';
import { init as lexerReady, parse as parseModule } from 'es-module-lexer';

/** The global the script assigns its factory to (deleted by the launcher at once). */
export const CORE_KEY = 'acp.core';
/** The global a chunk's script form assigns its factory to (deleted at once too). */
export const CHUNK_KEY = 'acp.chunk';
export const CORE_FILE = 'acp-core.js';
export const CACHE_FILE = `${CORE_FILE}.cache`;
const REQUIRE = '__acpRequire';
const META = '__acpMeta';
const LOAD = '__acpLoad';
const DEFAULT = '__acpDefault';

/**
 * The ESM start bundle as a script: static imports of node: builtins become
 * `__acpRequire(name)`, `import(x)` becomes `__acpLoad(x)`, `import.meta`
 * becomes `__acpMeta`, and the export list becomes the factory's return value.
 * Anything else a script cannot express is an error, not a silent rewrite.
 */
export async function toScript(code, { key = CORE_KEY, filename = CORE_FILE, chunk = false } = {}) {
  await lexerReady;
  const what = chunk ? filename : 'start bundle';
  for (const name of [REQUIRE, META, LOAD]) if (code.includes(name)) throw new Error(`${what} already uses ${name}`);
  const [imports, exportList] = parseModule(code);
  const edits = [];
  const builtins = new Set();
  const statics = [];
  for (const item of imports) {
    if (item.d === -2) edits.push([item.s, item.e, META]);
    else if (item.d > -1) edits.push([item.ss, item.ss + 'import'.length, LOAD]);
    else if (chunk && /^\.\.?\//.test(item.n ?? '')) {
      // A chunk's static import of another chunk: loaded (and awaited) where
      // the import stood, before the body uses it, as a module's would be.
      statics.push(item.n);
      edits.push([item.ss, item.se, importStatement(code.slice(item.ss, item.se), `(await ${LOAD}(${JSON.stringify(item.n)}))`, false).text]);
    } else {
      if (!item.n?.startsWith('node:')) throw new Error(`${what} imports ${item.n} statically; only node: builtins${chunk ? ' and other chunks' : ''} can be required`);
      const statement = importStatement(code.slice(item.ss, item.se), `${REQUIRE}(${JSON.stringify(item.n)})`);
      // Bun's bundle imports node:module for a require() helper even when
      // nothing calls it; loading an unused module costs ~0.6 ms.
      if (statement.names.every((name) => countWord(code, name) === 1)) {
        edits.push([item.ss, item.se, '']);
        continue;
      }
      builtins.add(item.n);
      edits.push([item.ss, item.se, statement.text]);
    }
  }
  edits.push(...exportEdits(code, exportList, what));
  let body = '';
  let at = 0;
  for (const [from, to, text] of edits.sort((a, b) => a[0] - b[0])) {
    body += code.slice(at, from) + text;
    at = to;
  }
  body += code.slice(at);
  body = body.replace(/^#!.*\n/, '');
  // ASCII only (the few non-ASCII characters are in strings and one regex,
  // where \\uXXXX means the same): the launcher then decodes the file as
  // Latin-1, skipping UTF-8 validation, and V8 keeps it as a one-byte string.
  const ascii = body.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const script = `globalThis[Symbol.for(${JSON.stringify(key)})] = async function (${REQUIRE}, ${META}, ${LOAD}) {\n"use strict";\n${ascii}\n};\n`;
  new vm.Script(script, { filename }); // a syntax check: throws on anything the rewrite broke
  return { script, exports: exportList.map((item) => item.n), builtins: [...builtins].sort(), statics };
}

/**
 * The export statement as the factory's return value: an `export { … }` list
 * (Bun puts it last), or `export default <expression>` (a CommonJS package
 * bundled into a chunk), whose value is kept in a constant and returned at
 * the end.
 */
function exportEdits(code, exportList, what) {
  const exportsAt = new Set(exportList.map((item) => item.ss));
  if (exportsAt.size !== 1) throw new Error(`${what} has ${exportsAt.size} export statements; expected one export { … } list or export default`);
  const [start] = exportsAt;
  if (exportList.length === 1 && exportList[0].n === 'default' && exportList[0].ln === undefined) {
    if (code.includes(DEFAULT)) throw new Error(`${what} already uses ${DEFAULT}`);
    return [[start, exportList[0].e, `const ${DEFAULT} =`], [code.length, code.length, `\nreturn { "default": ${DEFAULT} };`]];
  }
  const close = code.indexOf('}', Math.max(...exportList.map((item) => item.e)));
  const end = code[close + 1] === ';' ? close + 2 : close + 1;
  const returned = exportList.map((item) => (item.n === item.ln ? item.n : `${JSON.stringify(item.n)}: ${item.ln}`)).join(', ');
  return [[start, end, `return { ${returned} };`]];
}

/**
 * `import * as a from "m"`, `import { a, b as c } from "m"` or `import d from
 * "m"` as a declaration taking the module from `call` (a require, or an
 * awaited chunk load), with the local names it binds.
 */
function importStatement(statement, call, allowDefault = true) {
  // Minified or not: `import{a as b}from"m"`, `import*as a from"m"`.
  const clause = /^import\s*([\s\S]*?)\s*from\s*["'][^"']+["']$/.exec(statement.trim())?.[1];
  if (clause === undefined) throw new Error(`cannot rewrite ${statement}`);
  const namespace = /^\*\s*as\s+([\w$]+)$/.exec(clause);
  if (namespace) return { text: `const ${namespace[1]} = ${call}`, names: [namespace[1]] };
  const named = /^\{([^}]*)\}$/.exec(clause);
  if (named) {
    const parts = named[1].split(',').map((part) => part.trim()).filter(Boolean).map((part) => part.split(/\s+as\s+/));
    return { text: `const { ${parts.map((part) => part.join(': ')).join(', ')} } = ${call}`, names: parts.map((part) => part.at(-1)) };
  }
  // A builtin's default export is the module itself (what getBuiltinModule returns).
  if (allowDefault && /^[\w$]+$/.test(clause)) return { text: `const ${clause} = ${call}`, names: [clause] };
  throw new Error(`cannot rewrite ${statement}`);
}

/** How often `word` occurs in `code` as a whole identifier (strings and comments count too: a miscount only keeps an import). */
function countWord(code, word) {
  return code.match(new RegExp(`(?<![\\w$])${word.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))?.length ?? 0;
}

/**
 * Compiling the core with its cache, shared by both launchers: the cache is
 * passed only when its copy of the script equals the file and it comes from
 * this V8 (V8 rejects it anyway on other flags).
 */
const COMPILE = `/** Compile a script (${CORE_FILE}, a chunk's .js) with its code cache when the cache was made for exactly this file; returns the function it assigns to globalThis[key]. */
function compile(proc, file, key) {
  const fs = proc.getBuiltinModule('node:fs');
  const bytes = fs.readFileSync(file);
  let cachedData;
  try {
    const cache = fs.readFileSync(file + '.cache');
    const start = cache.indexOf(10) + 1;
    const header = JSON.parse(cache.subarray(0, start).toString());
    const end = start + header.source;
    if (header.v8 === proc.versions.v8 && cache.subarray(start, end).equals(bytes)) cachedData = cache.subarray(end);
  } catch {
    // No cache, or not one of ours: compile without it.
  }
  const script = new (proc.getBuiltinModule('node:vm').Script)(bytes.toString('latin1'), { filename: file, cachedData });
  const factory = script.runInThisContext();
  delete globalThis[key];
  return factory;
}`;

/** The chunk table of a launcher: a literal import() per file, resolved relative to the launcher as the bundle's own imports were. */
const chunkTable = (chunks) => `const CHUNKS = {\n${chunks.map((name) => `  ${JSON.stringify(`./${name}`)}: () => import(${JSON.stringify(`./${name}`)}),`).join('\n')}\n};`;

/**
 * The chunk loader of both launchers. The small chunks ship only as scripts
 * (chunks/x.js, see build.mjs); the bundle imports them by their module
 * names (chunks/x.mjs). Each runs once, from the factory the launcher's
 * `chunkFactory(script, key)` gives (compiled with its cache on Node,
 * imported on Bun and Deno), under a global key of its own so that two
 * chunks loading at once never take each other's. The other chunks are
 * imported.
 */
const chunkLoader = (scripts) => `/** The chunks shipped as scripts, by the name the bundle imports them with. */
const SCRIPTS = new Set(${JSON.stringify(scripts.map((name) => `./${name}`))});
const loaded = new Map();
/** A chunk (or builtin) by its specifier relative to this file. */
function load(specifier) {
  if (specifier.startsWith('node:')) return loadBuiltin(specifier);
  if (!SCRIPTS.has(specifier)) return (CHUNKS[specifier] ?? (() => import(specifier)))();
  let chunk = loaded.get(specifier);
  if (!chunk) {
    const script = specifier.replace(/\\.mjs$/, '.js');
    // A chunk's own imports are relative to the chunk.
    const relative = (inner) => (/^\\.\\.?\\//.test(inner) ? '.' + new URL(inner, 'acp:' + script.slice(1)).pathname : inner);
    chunk = chunkFactory(script, Symbol.for(${JSON.stringify(`${CHUNK_KEY}:`)} + script)).then((factory) => factory(requireBuiltin, chunkMeta(script), (inner) => load(relative(inner))));
    loaded.set(specifier, chunk);
  }
  return chunk;
}`;

/** A builtin as the launchers hand it to `import()` callers on Node: the module, looking like its namespace. */
const NODE_BUILTIN = "new Proxy(proc.getBuiltinModule(name), { get: (mod, key) => (key === 'default' ? mod : mod[key]) })";

/** The global key of a chunk script's factory (`script`: ./chunks/x.js). */
export const chunkKey = (script) => `${CHUNK_KEY}:${script}`;

/**
 * The ESM launcher, dist/acp.mjs: the package's library entry, and a CLI on
 * every runtime. Loads the core (with the code cache on Node, as a module on
 * Bun and Deno), runs it (it runs the CLI when this file is the program),
 * and re-exports the library. The literal imports of `chunks` let Deno
 * resolve them without read permission.
 */
export function launcher({ exports, builtins, chunks, scripts = [] }) {
  return `#!/usr/bin/env node
// Generated by scripts/build.mjs (scripts/start-path.mjs): the launcher of
// ${CORE_FILE}, the acp runtime's start bundle as a script, so that Node can
// use the V8 code cache in ${CACHE_FILE}. Bun and Deno import it as a module.
// acp.cjs is the same launcher for the CLI alone, without Node's ES module
// loader (~4 ms).
const KEY = Symbol.for(${JSON.stringify(CORE_KEY)});
const BUILTINS = ${JSON.stringify(builtins)};
${chunkTable(chunks)}
/** Literal imports of the chunk scripts, for Bun and Deno (Deno resolves them without read permission). */
const SCRIPT_IMPORTS = {
${scripts.map((name) => `  ${JSON.stringify(`./${name.replace(/\.mjs$/, '.js')}`)}: () => import(${JSON.stringify(`./${name.replace(/\.mjs$/, '.js')}`)}),`).join('\n')}
};
const g = globalThis;
const proc = g.process;
const onNode = !g.Bun && !g.Deno && typeof proc?.getBuiltinModule === 'function';

${COMPILE}

${chunkLoader(scripts)}
const chunkMeta = (script) => ({ url: new URL(script, import.meta.url).href, main: false });
let requireBuiltin;
/** A builtin: on Node without the ES module loader's namespace, looking like one. */
const loadBuiltin = (name) => (onNode ? Promise.resolve(${NODE_BUILTIN}) : import(name));
async function chunkFactory(script, key) {
  if (onNode) return compile(proc, proc.getBuiltinModule('node:url').fileURLToPath(new URL(script, import.meta.url)), key);
  await SCRIPT_IMPORTS[script]();
  const factory = g[key];
  delete g[key];
  return factory;
}

/** Whether this file is the program being run (Node runs the main module from its real path). */
function isMain() {
  if (typeof import.meta.main === 'boolean') return import.meta.main;
  const script = proc?.argv?.[1];
  if (!onNode || !script) return false;
  const { realpathSync } = proc.getBuiltinModule('node:fs');
  try {
    return realpathSync.native(script) === proc.getBuiltinModule('node:url').fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

async function start() {
  let factory;
  if (onNode) {
    factory = compile(proc, proc.getBuiltinModule('node:url').fileURLToPath(new URL('./${CORE_FILE}', import.meta.url)), KEY);
    requireBuiltin = (name) => proc.getBuiltinModule(name);
  } else {
    await import('./${CORE_FILE}');
    factory = g[KEY];
    delete g[KEY];
    // The builtins the core and the chunk scripts require (imported up front: a require is synchronous).
    const modules = new Map(await Promise.all(BUILTINS.map(async (name) => [name, await import(name)])));
    requireBuiltin = (name) => modules.get(name);
  }
  return factory(requireBuiltin, { url: import.meta.url, main: isMain() }, load);
}

export const { ${exports.join(', ')} } = await start();
`;
}

/**
 * The CommonJS launcher, dist/acp.cjs: the CLI for Node (the package's bin
 * and the skill's entry). A CommonJS program starts without Node's ES module
 * loader, which costs an .mjs entry ~4 ms before its first line runs, and
 * ~5 ms more when a CommonJS program first imports a module. So the chunks
 * in `scripts` (the small ones commands load: status, log, doctor…) are
 * loaded from their script forms (chunks/*.js) the way the core is; the
 * others (the server, the report, yaml, valibot) are imported.
 */
export function cjsLauncher({ chunks, scripts = [] }) {
  return `#!/usr/bin/env node
// Generated by scripts/build.mjs (scripts/start-path.mjs): the CLI launcher
// of ${CORE_FILE} for Node (see acp.mjs, the library entry, for the rest).
'use strict';
const KEY = Symbol.for(${JSON.stringify(CORE_KEY)});
${chunkTable(chunks)}

${COMPILE}

${chunkLoader(scripts)}
const proc = process;
const path = proc.getBuiltinModule('node:path');
const requireBuiltin = (name) => proc.getBuiltinModule(name);
/** A builtin without the ES module loader, looking like its namespace. */
const loadBuiltin = (name) => Promise.resolve(${NODE_BUILTIN});
const fileMeta = (file, main) => ({
  main,
  get url() {
    return proc.getBuiltinModule('node:url').pathToFileURL(file).href;
  },
});
const chunkMeta = (script) => fileMeta(path.join(__dirname, script), false);
const chunkFactory = (script, key) => Promise.resolve().then(() => compile(proc, path.join(__dirname, script), key));

const factory = compile(proc, path.join(__dirname, '${CORE_FILE}'), KEY);
module.exports = factory(requireBuiltin, fileMeta(__filename, require.main === module), load);
`;
}

/** A cache file's parts: its header, its copy of the script and V8's data (undefined when it is not one). */
export function readCache(bytes) {
  const start = bytes.indexOf(10) + 1;
  try {
    const header = JSON.parse(bytes.subarray(0, start).toString());
    if (typeof header.v8 !== 'string' || !Number.isInteger(header.source)) return undefined;
    return { header, script: bytes.subarray(start, start + header.source), data: bytes.subarray(start + header.source) };
  } catch {
    return undefined;
  }
}

/** Whether `cache` (a cache file's bytes) was made for `script` by this Node's V8 and V8 accepts it. */
export function cacheFits(cache, script) {
  const parts = readCache(cache);
  if (parts?.header.v8 !== process.versions.v8 || !parts.script.equals(script)) return false;
  return new vm.Script(script.toString('latin1'), { filename: CORE_FILE, cachedData: parts.data }).cachedDataRejected === false;
}

/**
 * Make the code caches of `dir`/acp-core.js and of the chunk scripts
 * (chunks/*.js) in a fresh `node` process (so its V8 flags are a plain
 * run's) that loads the library through `dir`/acp.cjs, exactly as the CLI
 * loads it, and runs a small collaboration in-process — init, next,
 * append, validate, wait, --help, then status, log and doctor — and then
 * serialises every function compiled so far. Returns each cache file's bytes
 * by its path relative to `dir` (a chunk no command loaded gets none).
 */
export function makeCodeCaches(dir) {
  const work = mkdtempSync(join(tmpdir(), 'acp-code-cache-'));
  try {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', WARM_UP, join(dir, 'acp.cjs'), work], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`making the code cache failed (exit ${r.status}): ${r.stderr.toString()}`);
    const made = JSON.parse(readFileSync(join(work, 'made.json'), 'utf8'));
    if (!made.includes(CORE_FILE)) throw new Error('making the code cache wrote nothing');
    return new Map(made.map((name) => [`${name}.cache`, readFileSync(join(work, 'caches', `${name}.cache`))]));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// Runs in the child. acp.cjs compiles the scripts (same source text: V8 keys
// a cache on it) and loads the chunks; CLI commands run through the
// library's runCli on a temporary folder; then header + cache is written for
// each script compiled.
const WARM_UP = `
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
const [launcher, work] = process.argv.slice(1);
const base = dirname(launcher);
// acp.cjs compiles the core and each chunk script with a new vm.Script, looked
// up at each call: a recording subclass keeps them (and what they compiled) to
// serialise below, with no loader of its own here.
const vm = process.getBuiltinModule('node:vm');
const compiled = [];
vm.Script = class extends vm.Script {
  constructor(source, options) {
    super(source, options);
    compiled.push([relative(base, options.filename), this, readFileSync(options.filename)]);
  }
};
const lib = await createRequire(launcher)(launcher);
const host = await lib.createNodeHost({ syncFs: true, checkpointKeyFile: join(work, 'checkpoint.key') });
const folder = join(work, 'collab');
const run = (...argv) => lib.runCli({ argv, stdout() {}, stderr() {}, color: false, env: () => undefined }, host);
await run('--version');
await run('--help');
await run('init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'Pick a queue', '--completion', 'A queue is chosen', '--primary-deliverable-type', 'design-spec');
for (const who of ['alice', 'bob']) await run('next', '--folder', folder, '--participant', who);
const spec = ['Problem', 'Goals', 'Non-goals', 'Proposed Design', 'Interfaces / Contracts', 'Failure Modes', 'Validation Plan', 'Open Questions'].map((s) => '## ' + s + '\\n\\nText.\\n').join('\\n');
mkdirSync(join(folder, 'deliverables'), { recursive: true });
writeFileSync(join(folder, 'deliverables', 'design-spec.md'), '# Design Spec\\n\\nDeliverable type: \\x60design-spec\\x60\\nStatus: Draft\\n\\n' + spec);
await run('append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'draft', '--doc', 'deliverables/design-spec.md', '--reply-to', '1', '--role', 'primary');
writeFileSync(join(folder, 'proposal.md'), '# Proposal\\n\\nUse a queue.\\n');
await run('append', '--folder', folder, '--participant', 'alice', '--event', 'proposal_submitted', '--summary', 'please review', '--doc', 'proposal.md', '--reply-to', '2', '--json');
await run('append', '--folder', folder, '--participant', 'alice', '--event', 'review_submitted', '--summary', 'out of turn', '--doc', 'review.md', '--reply-to', '3');
await run('next', '--folder', folder, '--participant', 'bob', '--json');
await run('wait', '--folder', folder, '--participant', 'bob', '--timeout', '1');
await run('validate', '--folder', folder);
await run('validate', '--folder', folder, '--json');
await run('plugins');
await run('status', '--folder', folder);
await run('status', '--folder', folder, '--json');
await run('log', '--folder', folder);
await run('doctor', '--folder', folder);
const made = [];
for (const [name, script, bytes] of compiled) {
  mkdirSync(dirname(join(work, 'caches', name)), { recursive: true });
  writeFileSync(join(work, 'caches', name + '.cache'), Buffer.concat([Buffer.from(JSON.stringify({ v8: process.versions.v8, source: bytes.length }) + '\\n'), bytes, script.createCachedData()]));
  made.push(name);
}
writeFileSync(join(work, 'made.json'), JSON.stringify(made));
`;
