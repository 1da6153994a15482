#!/usr/bin/env node
/**
 * The `acp` command (built to dist/acp.mjs, the package's bin, and into the
 * skill's one-file runtime): turns on Node's compile cache, then loads the
 * library and runs the CLI as this process. The library (acp.ts; in dist/,
 * core.mjs, whose names lib.mjs exports) has no entry-point code of its own
 * for Node, so importing it never runs anything. `acp --version` alone is answered here, without the library.
 * @module
 */
import { VERSION } from './constants.ts';

type Proc = { argv?: string[]; env: Record<string, string | undefined>; getBuiltinModule?(id: string): unknown };

/**
 * Node >= 22.1 keeps the code it compiles (the library, and the chunks a
 * command loads) in its on-disk compile cache, so the next command starts
 * without compiling them again; it must be on before the library is
 * imported, which is why this file imports nothing else first. The
 * directory is the user's own cache directory, never Node's default under the
 * shared temporary directory: compiled code read from a place another user
 * can write would be their code running as us. Node 20 has no compile cache
 * (`enableCompileCache` is simply not there); Bun and Deno have their own
 * mechanisms. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as Node documents.
 */
function enableCompileCache(): void {
  const g = globalThis as { Deno?: unknown; Bun?: unknown; process?: Proc };
  const proc = g.process;
  if (g.Deno || g.Bun || typeof proc?.getBuiltinModule !== 'function') return;
  const module = proc.getBuiltinModule('node:module') as { enableCompileCache?(directory: string): unknown } | undefined;
  if (typeof module?.enableCompileCache !== 'function') return;
  const home = proc.env.HOME;
  const cacheHome = proc.env.XDG_CACHE_HOME || (home ? `${home}/.cache` : undefined);
  if (!cacheHome?.startsWith('/')) return;
  try {
    module.enableCompileCache(`${cacheHome}/acp/node-compile-cache`);
  } catch {
    // A cache directory that cannot be created only costs the cache.
  }
}

/**
 * `acp --version` (or `-v`) and nothing else: the one answer that needs
 * none of the library, printed before it is loaded (the library and its
 * compiled code are most of a small command's start). Whether it was
 * answered; any other command line, or a write that fails, takes the
 * ordinary road (runCli answers `--version` too, with every other spelling).
 */
function answeredVersion(): boolean {
  const proc = (globalThis as { process?: Proc }).process;
  const args = proc?.argv?.slice(2) ?? [];
  if (args.length !== 1 || (args[0] !== '--version' && args[0] !== '-v')) return false;
  const fs = proc?.getBuiltinModule?.('node:fs') as { writeSync(fd: number, text: string): number } | undefined;
  try {
    fs?.writeSync(1, `acp/${VERSION}\n`);
    return fs !== undefined;
  } catch {
    return false;
  }
}

/** Run the CLI for this process (argv, stdio, signals, exit code: runtime/process.ts). */
async function start(): Promise<void> {
  if (answeredVersion()) return;
  enableCompileCache();
  const { main } = await import('../acp.ts');
  await main();
}

await start();
