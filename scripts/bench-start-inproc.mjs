// One process of scripts/bench-start.ts's trace (issue 42), run by Node or
// Bun: the CPU time of importing dist/lib.mjs (its code: core.mjs), of a command's first run
// (cold: every function it calls is compiled and warmed up on the way) and
// of the same command run again in the same process (warm: the work
// itself). Node's compile cache is turned on as the bin turns it on, so the
// library's top-level code comes from it as in a real run. Prints one JSON
// line: { "load": ms, "first": ms, "again": ms }.
//
//   node scripts/bench-start-inproc.mjs DIST ARG...
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, ...argv] = process.argv.slice(2);
const cacheHome = process.env.XDG_CACHE_HOME || `${process.env.HOME}/.cache`;
const nodeModule = process.versions.bun ? undefined : process.getBuiltinModule?.('node:module');
nodeModule?.enableCompileCache?.(`${cacheHome}/acp/node-compile-cache`);

const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const t0 = cpu();
const lib = await import(pathToFileURL(join(dist, 'lib.mjs')).href);
const t1 = cpu();
const host = await lib.createNodeHost({ syncFs: true });
const run = async () => {
  const io = { argv, stdout: () => undefined, stderr: () => undefined, color: false, env: (name) => process.env[name], signal: new AbortController().signal };
  const code = await lib.runCli(io, host);
  if (code !== 0) throw new Error(`acp ${argv.join(' ')} exited ${code}`);
};
await run();
const t2 = cpu();
await run();
const t3 = cpu();
console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1, again: t3 - t2 }));
