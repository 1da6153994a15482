// Run by scripts/build.mjs under the project's bun: writes the two bundles of
// dist/ into the directory given as the only argument.
//
//   acp.mjs      acp.ts and everything it imports, except the MCP server
//   acp-mcp.mjs  plugins/mcp/server.ts with the MCP SDK and zod (~0.7 MB),
//                imported by `acp mcp` only, so no other command parses it
//
// The bun CLI cannot rewrite one import, hence the JS API: plugins/mcp.ts's
// `import('./mcp/server.ts')` becomes `import('./acp-mcp.mjs')`, resolved
// beside acp.mjs at run time. The compiled binary (`bun build --compile
// acp.ts`) keeps the literal import and so carries the server inside.
import { join } from 'node:path';

const outdir = process.argv[2];
if (!outdir) {
  console.error('usage: bun scripts/bundle.ts OUTDIR');
  process.exit(2);
}
const root = join(import.meta.dir, '..');
const MCP_SERVER = /[\\/]plugins[\\/]mcp[\\/]server\.ts$|^\.\/mcp\/server\.ts$/;

const split: import('bun').BunPlugin = {
  name: 'acp-mcp-split',
  setup(build) {
    build.onResolve({ filter: /mcp\/server\.ts$/ }, (args) => (MCP_SERVER.test(args.path) ? { path: './acp-mcp.mjs', external: true } : undefined));
  },
};

// acp-mcp.mjs drops whitespace and simplifies syntax (767 -> 568 kB) but keeps
// identifiers, so stack traces and error names from the SDK stay readable.
const builds = [
  { entry: 'acp.ts', naming: 'acp.mjs', plugins: [split] },
  { entry: 'plugins/mcp/server.ts', naming: 'acp-mcp.mjs', plugins: [], minify: { whitespace: true, syntax: true } },
];
for (const { entry, naming, plugins, minify } of builds) {
  const result = await Bun.build({ entrypoints: [join(root, entry)], root, outdir, naming, target: 'node', format: 'esm', plugins, minify });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
}
