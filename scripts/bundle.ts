// Run by scripts/build.mjs under the project's bun. Two forms:
//
//   bun scripts/bundle.ts OUTDIR          the package's dist/, into OUTDIR:
//     core.mjs     what every command needs at start: acp.ts and the modules
//                  it imports (the core, the host, the built-in plugins'
//                  command specs, the deliverable types, the plugin loader),
//                  exporting acp.ts's names and those the chunks take (~390 kB)
//     lib.mjs      the library (the package's main export): acp.ts's exports,
//                  re-exported from core.mjs and nothing else
//     acp.mjs      the bin (runtime/bin.ts): turns on Node's compile cache,
//                  then imports ./core.mjs and runs the CLI
//     chunks/*.mjs the rest, one file per lazily imported module, loaded by the
//                  command that needs it: the JSON-RPC server and client
//                  (rpc.mjs), doctor, the humans commands (humans-report.mjs
//                  carries markdown-it), git, signing, the bundled plugins,
//                  valibot, yaml
//     acp-mcp.mjs  plugins/mcp/server.ts with the MCP SDK and zod (~0.7 MB),
//                  imported by `acp mcp` only
//   bun scripts/bundle.ts --single FILE   the bin with everything in one
//                  file (the MCP server too): the skill's runtime
//
// Why not Bun's own code splitting: it puts every module shared between the
// start and a lazy chunk into a chunk of its own (35 hash-named files, 14 of
// them read by every command; each costs Node ~0.6 ms to resolve, read and
// link). Here each dynamic `import()` of a module or package outside the
// start path becomes a named file (`./plugins/humans/report.ts` ->
// `chunks/humans-report.mjs`, `valibot` -> `chunks/valibot.mjs`), built on
// its own with the same rule. One copy of each module: a chunk imports a
// module of the start path from core.mjs, and a module that has a chunk of
// its own from that chunk; only the other modules it imports are built into
// it. Why: a copy of a module is a second set of its classes and its state
// (an error class the CLI tells apart with `instanceof`, PyFloat and PyInt,
// pyjson's key order, the lock's queues), and a value made by one copy
// fails the other's checks. That is also why the start path is core.mjs,
// not lib.mjs: a chunk needs names of the core's modules that the library
// does not export (test/start-graph.test.ts holds both). The compiled
// binary (`bun build --compile runtime/bin.ts`) bundles everything.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const single = process.argv[2] === '--single';
const outdir = process.argv[single ? 3 : 2] ?? '';
if (!outdir) {
  console.error('usage: bun scripts/bundle.ts OUTDIR | --single FILE');
  process.exit(2);
}
const root = join(import.meta.dir, '..');
const packageVersion: string = JSON.parse(await Bun.file(join(root, 'package.json')).text()).version;

/** Dynamic imports that stay in core.mjs: every command runs them at start. */
const START_PATH = new Set(['runtime/process.ts', 'deliverable-types/index.ts', 'runtime/loader.ts', ...['protocol', 'doctor', 'rpc', 'git', 'mcp', 'humans'].map((name) => `plugins/${name}.ts`)]);
/** Packages kept in a chunk of their own even where imported statically (shared by several chunks). */
const SHARED_PACKAGES = new Set(['valibot', 'yaml']);
const MCP_SERVER = 'plugins/mcp/server.ts';
const BIN = 'runtime/bin.ts';
/** The library's entry: its code is in core.mjs, its exports are lib.mjs's. */
const LIBRARY = 'acp.ts';
/** The job that builds core.mjs: not a module of the project, a made-up entry (see {@link coreEntry}). */
const CORE = 'acp:core';

/** What scripts/bundle.ts needs to know of the project's import graph before it builds. */
interface ModuleGraph {
  /** core.mjs's modules: acp.ts and what it imports, statically or on START_PATH. */
  start: Set<string>;
  /** The project's modules that only a dynamic `import()` outside the start path reaches first: each is a chunk's entry. */
  chunked: Set<string>;
  /** The names the chunks take from each start-path module (`'*'`: all its exports), which core.mjs must export. */
  needs: Map<string, Set<string> | '*'>;
}

/** One import or re-export of a module's source: its specifier, and the names it takes (`'*'`: all). */
interface ValueImport {
  path: string;
  names: string[] | '*';
}

/**
 * The value imports and re-exports in a module's source, read from its text
 * (`import { a, b as c }`, `import * as x`, `import x`, `export { a } from`,
 * `export * from`; type-only ones left out). Bun's transpiler lists the
 * specifiers but not the names; the project writes each import on its
 * own statement with single quotes, which this reads.
 */
function valueImports(source: string): ValueImport[] {
  const found: ValueImport[] = [];
  const clauses = /^(?:import|export)\s+(?!type\s)((?:\*\s+as\s+[\w$]+|\*|[\w$]+|\{[^}]*\})(?:\s*,\s*(?:\*\s+as\s+[\w$]+|\{[^}]*\}))?)\s*from\s*'([^']+)'/gm;
  for (const match of source.matchAll(clauses)) {
    const clause = match[1]!;
    const braces = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
    const outside = clause.replace(/\{[^}]*\}/, '');
    const named = braces.split(',').map((item) => item.trim()).filter((item) => item && !item.startsWith('type ')).map((item) => item.split(/\s+as\s+/)[0]!);
    const isDefault = /^[\w$]+\s*(,|$)/.test(outside.trim());
    found.push({ path: match[2]!, names: outside.includes('*') ? '*' : [...named, ...(isDefault ? ['default'] : [])] });
  }
  return found;
}

/**
 * The project's import graph from acp.ts and the bin, as Bun's transpiler
 * reads each module (type-only imports are gone), first along the start
 * path, then everywhere (the MCP server is built on its own).
 */
async function moduleGraph(): Promise<ModuleGraph> {
  const transpiler = new Bun.Transpiler({ loader: 'ts' });
  const sources = new Map<string, string>();
  const sourceOf = async (module: string): Promise<string> => sources.get(module) ?? sources.set(module, await Bun.file(join(root, module)).text()).get(module)!;
  const importsOf = async (module: string): Promise<{ target: string; dynamic: boolean }[]> =>
    transpiler.scan(await sourceOf(module)).imports.flatMap(({ path, kind }) => {
      const target = targetOf(path, join(root, module));
      return target?.endsWith('.ts') ? [{ target, dynamic: kind === 'dynamic-import' }] : [];
    });
  const reach = async (from: string[], follows: (edge: { target: string; dynamic: boolean }) => boolean, seen: Set<string>): Promise<void> => {
    for (const pending = [...from]; pending.length; ) {
      const module = pending.pop()!;
      if (seen.has(module)) continue;
      seen.add(module);
      for (const edge of await importsOf(module)) if (follows(edge)) pending.push(edge.target);
    }
  };
  const start = new Set<string>();
  await reach([LIBRARY], (edge) => !edge.dynamic || START_PATH.has(edge.target), start);
  const chunked = new Set<string>();
  const everywhere = new Set<string>();
  await reach([LIBRARY, BIN], (edge) => {
    if (edge.dynamic && !start.has(edge.target) && edge.target !== MCP_SERVER) chunked.add(edge.target);
    return edge.target !== MCP_SERVER;
  }, everywhere);
  const needs = new Map<string, Set<string> | '*'>();
  const need = (module: string, names: string[] | '*'): void => {
    const known = needs.get(module) ?? new Set<string>();
    needs.set(module, names === '*' || known === '*' ? '*' : new Set([...known, ...names]));
  };
  for (const module of [...everywhere].filter((m) => !start.has(m) && m !== BIN)) {
    const source = await sourceOf(module);
    for (const { path, names } of valueImports(source)) {
      const target = targetOf(path, join(root, module));
      if (target !== undefined && start.has(target)) need(target, names);
    }
    for (const edge of await importsOf(module)) if (edge.dynamic && start.has(edge.target)) need(edge.target, '*');
  }
  return { start, chunked, needs };
}

/**
 * core.mjs's entry: acp.ts with all its exports (lib.mjs's), and of the
 * other start-path modules the names the chunks take from them, so that a
 * chunk can import them from core.mjs. Only those: each export kept is code
 * kept and a binding every command links (Node 20, which compiles core.mjs
 * on every run, measured ~1 ms for exporting every name of every module).
 */
function coreEntry(graph: ModuleGraph): string {
  const file = (module: string): string => JSON.stringify(join(root, module));
  const lines = [`export * from ${file(LIBRARY)};`];
  for (const [module, names] of [...graph.needs].sort(([a], [b]) => a.localeCompare(b))) {
    if (module === LIBRARY) continue;
    if (names !== '*' && names.has('default')) {
      console.error(`bundle: a chunk imports the default export of ${module}, which core.mjs cannot re-export: import it by name`);
      process.exit(1);
    }
    lines.push(names === '*' ? `export * from ${file(module)};` : `export { ${[...names].sort().join(', ')} } from ${file(module)};`);
  }
  return lines.join('\n') + '\n';
}

/**
 * lib.mjs: the names acp.ts exports, taken from core.mjs (their one copy),
 * so the library is what acp.ts declares and no more (test/start-path.test.ts).
 */
async function writeLibrary(): Promise<void> {
  const names = new Bun.Transpiler({ loader: 'ts' }).scan(await Bun.file(join(root, LIBRARY)).text()).exports.sort();
  await Bun.write(join(outdir, 'lib.mjs'), `// The library (${LIBRARY}): its exports, from the one copy of its code that every command loads.\nexport {\n${names.map((name) => `  ${name}`).join(',\n')}\n} from "./core.mjs";\n`);
}

/**
 * acp.ts reads only the version from package.json; the rest (scripts,
 * devDependencies) must not ride along, nor change the bundle.
 */
const versionOnly: import('bun').BunPlugin = {
  name: 'acp-version',
  setup(b) {
    b.onLoad({ filter: /[\\/]package\.json$/ }, (args) => (args.path === join(root, 'package.json') ? { contents: JSON.stringify({ version: packageVersion }), loader: 'json' } : undefined));
  },
};

/** The chunk file name of a lazily imported project module or package. */
const chunkName = (target: string): string => (target.endsWith('.ts') ? target.replace(/^plugins\//, '').replace(/\.ts$/, '').replaceAll('/', '-') : target.replaceAll('/', '-')) + '.mjs';

interface Job {
  /** Project-relative path of a module, or a package name. */
  target: string;
  /** Output path relative to outdir. */
  out: string;
}

/** Where an import points: a project module (root-relative, `.ts`) or a bare package name; undefined for node: builtins and URLs. */
function targetOf(path: string, importer: string | undefined): string | undefined {
  if (path.startsWith('node:') || path.includes(':')) return undefined;
  if (path.startsWith('.')) return importer === undefined ? undefined : relative(root, join(importer, '..', path)).replaceAll('\\', '/');
  if (path.startsWith('/')) return relative(root, path).replaceAll('\\', '/');
  return path;
}

/**
 * Rewrite a built file in ASCII: each other character becomes its `\\u`
 * escape (a character escaped by a lone backslash loses it: `\\é` is `é`),
 * which means the same in strings, untagged templates, regular expressions
 * (a surrogate pair stays one code point under the u flag), identifiers and
 * comments (only a tagged template's raw strings would see the escape:
 * the bundled code has none with such a character, no String.raw). Why: Node
 * decodes a file with any other character into a two-byte string, twice
 * the bytes to hash for the compile cache and to scan for every function
 * compiled lazily; `next` saves ~0.7 ms of CPU on Node 22 (issue 42). Bun's
 * bundler has no option for it (esbuild's `charset=ascii`).
 */
async function asciiOnly(file: string): Promise<void> {
  const text = await Bun.file(file).text();
  const unit = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const ascii = text.replace(/(\\*)([^\x00-\x7f])/gu, (_, slashes: string, char: string) => (slashes.length % 2 ? slashes.slice(1) : slashes) + char.split('').map(unit).join(''));
  if (ascii !== text) await Bun.write(file, ascii);
}

/**
 * Where an import of `target` by a module of `job` goes: the dist/ file it
 * is taken from (relative to dist/), or undefined to build it into the job's
 * own file. One copy of each module (see the header): the start path's in
 * core.mjs, a chunk entry's in its chunk.
 */
function fileOf(target: string, dynamic: boolean, job: Job, graph: ModuleGraph): string | undefined {
  if (target === MCP_SERVER) return 'acp-mcp.mjs';
  // The bin copies only runtime/constants.ts (its version): `--version` loads nothing else.
  if (job.target === BIN) return target === LIBRARY ? 'core.mjs' : undefined;
  if (job.target !== CORE && graph.start.has(target)) return 'core.mjs';
  const isPackage = !target.endsWith('.ts') && !target.endsWith('.json');
  const chunked = isPackage ? (dynamic && !START_PATH.has(target)) || SHARED_PACKAGES.has(target) : graph.chunked.has(target);
  return chunked ? `chunks/${chunkName(target)}` : undefined;
}

/** Build one job; the chunks its imports point to join `queue`. */
async function build(job: Job, queue: Map<string, Job>, graph: ModuleGraph): Promise<void> {
  const outDir = join(outdir, job.out, '..');
  const importPath = (out: string): string => {
    const rel = relative(outDir, join(outdir, out)).replaceAll('\\', '/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  const split: import('bun').BunPlugin = {
    name: 'acp-chunks',
    setup(b) {
      // core.mjs's entry is made here, not a file of the project.
      b.onResolve({ filter: /^acp:core$/ }, () => ({ path: CORE, namespace: 'acp-core' }));
      b.onLoad({ filter: /.*/, namespace: 'acp-core' }, () => ({ contents: coreEntry(graph), loader: 'ts' }));
      b.onResolve({ filter: /.*/ }, (args) => {
        if (!args.importer || args.namespace === 'acp-core') return undefined;
        const target = targetOf(args.path, args.importer);
        if (target === undefined || target === job.target) return undefined;
        const out = fileOf(target, args.kind === 'dynamic-import', job, graph);
        if (out === undefined) return undefined;
        if (out.startsWith('chunks/') && !queue.has(target)) queue.set(target, { target, out });
        return { path: importPath(out), external: true };
      });
    },
  };
  const entry = job.target === CORE ? CORE : job.target.endsWith('.ts') ? join(root, job.target) : Bun.resolveSync(job.target, root);
  const result = await Bun.build({ entrypoints: [entry], root, outdir: outDir, naming: job.out.split('/').pop()!, target: 'node', format: 'esm', plugins: [versionOnly, split] });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
}

/** The skill's runtime: the bin and everything it may load, in one file (Bun inlines dynamic imports when not splitting). */
async function buildSingle(file: string): Promise<void> {
  const result = await Bun.build({ entrypoints: [join(root, BIN)], root, outdir: join(file, '..'), naming: file.split(/[\\/]/).pop()!, target: 'node', format: 'esm', minify: { whitespace: true, syntax: true }, plugins: [versionOnly] });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  await asciiOnly(file);
}

/** dist/: the library, the bin, the chunks they load and the MCP server. */
async function buildDist(): Promise<void> {
  const graph = await moduleGraph();
  const queue = new Map<string, Job>([
    [CORE, { target: CORE, out: 'core.mjs' }],
    [BIN, { target: BIN, out: 'acp.mjs' }],
  ]);
  const done = new Set<string>();
  for (let pending = [...queue.values()]; pending.length; pending = [...queue.values()].filter((job) => !done.has(job.target))) {
    for (const job of pending) {
      done.add(job.target);
      await build(job, queue, graph);
    }
  }
  await writeLibrary();
  // acp-mcp.mjs drops whitespace and simplifies syntax (767 -> 568 kB) but keeps
  // identifiers, so stack traces and error names from the SDK stay readable.
  const mcp = await Bun.build({ entrypoints: [join(root, MCP_SERVER)], root, outdir, naming: 'acp-mcp.mjs', target: 'node', format: 'esm', minify: { whitespace: true, syntax: true } });
  if (!mcp.success) {
    for (const log of mcp.logs) console.error(log);
    process.exit(1);
  }
  if (!['core.mjs', 'lib.mjs', 'acp.mjs'].every((name) => existsSync(join(outdir, name)))) process.exit(1);
  for (const name of ['core.mjs', 'lib.mjs', 'acp.mjs', 'acp-mcp.mjs', ...readdirSync(join(outdir, 'chunks')).map((chunk) => `chunks/${chunk}`)]) await asciiOnly(join(outdir, name));
}

if (single) await buildSingle(outdir);
else await buildDist();
