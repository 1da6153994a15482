// Run by scripts/build.mjs under the project's bun. Two forms:
//
//   bun scripts/bundle.ts OUTDIR          the package's dist/, into OUTDIR:
//     lib.mjs      the library (acp.ts) and what every command needs at start:
//                  the core, the host, the built-in plugins' command specs,
//                  the deliverable types, the plugin loader (~200 kB)
//     acp.mjs      the bin (runtime/bin.ts): turns on Node's compile cache,
//                  then imports ./lib.mjs and runs the CLI
//     chunks/*.mjs the rest, one file per lazily imported module, loaded by the
//                  command that needs it: the JSON-RPC server and client
//                  (rpc.mjs), doctor, the humans commands (humans-report.mjs
//                  carries markdown-it), git, the bundled plugins, valibot, yaml
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
// its own with the same rule; the small helpers it shares with the start
// (runtime/util.ts: pure functions, no state) are copied into it. The
// compiled binary (`bun build --compile runtime/bin.ts`) bundles everything.
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

/** Dynamic imports that stay in acp.mjs: every command runs them at start. */
const START_PATH = new Set(['runtime/process.ts', 'deliverable-types/index.ts', 'runtime/loader.ts', ...['protocol', 'doctor', 'rpc', 'git', 'mcp', 'humans'].map((name) => `plugins/${name}.ts`)]);
/** Packages kept in a chunk of their own even where imported statically (shared by several chunks). */
const SHARED_PACKAGES = new Set(['valibot', 'yaml']);
const MCP_SERVER = 'plugins/mcp/server.ts';
const BIN = 'runtime/bin.ts';
/** acp.ts is its own file, dist/lib.mjs, which the bin imports. */
const LIBRARY = 'acp.ts';
/**
 * The error classes, which the CLI tells apart with `instanceof`: a chunk
 * takes them from lib.mjs (acp.ts re-exports every one), never a copy of
 * its own (runtime/signing.ts's refusals were internal errors, exit 70).
 */
const ERRORS = 'runtime/errors.ts';

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

/** Build one job; the chunks its imports point to join `queue`. */
async function build(job: Job, queue: Map<string, Job>): Promise<void> {
  const outDir = join(outdir, job.out, '..');
  const importPath = (out: string): string => {
    const rel = relative(outDir, join(outdir, out)).replaceAll('\\', '/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  const split: import('bun').BunPlugin = {
    name: 'acp-chunks',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (!args.importer) return undefined;
        const target = targetOf(args.path, args.importer);
        if (target === undefined || target === job.target) return undefined;
        if (target === MCP_SERVER) return { path: importPath('acp-mcp.mjs'), external: true };
        if (target === LIBRARY || (target === ERRORS && job.target !== LIBRARY)) return { path: importPath('lib.mjs'), external: true };
        const isPackage = !target.endsWith('.ts') && !target.endsWith('.json');
        const lazy = args.kind === 'dynamic-import' ? !START_PATH.has(target) : isPackage && SHARED_PACKAGES.has(target);
        if (!lazy) return undefined;
        const out = `chunks/${chunkName(target)}`;
        if (!queue.has(target)) queue.set(target, { target, out });
        return { path: importPath(out), external: true };
      });
    },
  };
  const entry = job.target.endsWith('.ts') ? join(root, job.target) : Bun.resolveSync(job.target, root);
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
  const queue = new Map<string, Job>([
    [LIBRARY, { target: LIBRARY, out: 'lib.mjs' }],
    [BIN, { target: BIN, out: 'acp.mjs' }],
  ]);
  const done = new Set<string>();
  for (let pending = [...queue.values()]; pending.length; pending = [...queue.values()].filter((job) => !done.has(job.target))) {
    for (const job of pending) {
      done.add(job.target);
      await build(job, queue);
    }
  }
  // acp-mcp.mjs drops whitespace and simplifies syntax (767 -> 568 kB) but keeps
  // identifiers, so stack traces and error names from the SDK stay readable.
  const mcp = await Bun.build({ entrypoints: [join(root, MCP_SERVER)], root, outdir, naming: 'acp-mcp.mjs', target: 'node', format: 'esm', minify: { whitespace: true, syntax: true } });
  if (!mcp.success) {
    for (const log of mcp.logs) console.error(log);
    process.exit(1);
  }
  if (!existsSync(join(outdir, 'lib.mjs')) || !existsSync(join(outdir, 'acp.mjs'))) process.exit(1);
  for (const name of ['lib.mjs', 'acp.mjs', 'acp-mcp.mjs', ...readdirSync(join(outdir, 'chunks')).map((chunk) => `chunks/${chunk}`)]) await asciiOnly(join(outdir, name));
}

if (single) await buildSingle(outdir);
else await buildDist();
