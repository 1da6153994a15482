/**
 * The process edge: the one module that touches `process`, `Deno` or `Bun`
 * (argv, stdio, environment, signals, exit code, running commands). acp.ts's
 * entry point hands it `runCli`; everything else receives capabilities.
 * Imports nothing but types from runtime/types.ts.
 * @module
 */
import type { CliIo, RuntimeFacts } from './types.ts';
import { createNodeHost } from './node-host.ts';
import { decodeSurrogateEscape, encodeForStream } from './pytext.ts';
import { builtinModule } from './util.ts';

type Proc = {
  argv: string[];
  env: Record<string, string | undefined>;
  stdout: Stream & { isTTY?: boolean };
  stderr: Stream;
  exitCode?: number;
  on?(signal: string, fn: () => void): unknown;
  exit(code: number): never;
};
/** How long a command may take to stop after SIGINT/SIGTERM. */
const SIGNAL_GRACE_MS = 3000;

type Stream = { write(s: string | Uint8Array): unknown; on?(event: 'error', fn: () => void): unknown };

/**
 * Environment access that never trips Deno's permission prompt: under Deno a
 * variable is read only when `--allow-env` grants it (else `undefined`).
 */
function envReader(proc: Proc): (name: string) => string | undefined {
  const deno = (globalThis as { Deno?: { permissions: { querySync(d: { name: 'env'; variable: string }): { state: string } } } }).Deno;
  return (name) => {
    if (deno && deno.permissions.querySync({ name: 'env', variable: name }).state !== 'granted') return undefined;
    return proc.env[name];
  };
}

/**
 * Colour on a TTY unless NO_COLOR; FORCE_COLOR forces it (the picocolors
 * rules). Under Deno, only with the whole environment granted: picocolors
 * reads NO_COLOR, FORCE_COLOR, TERM and CI when it loads, and a denied read
 * would fail the command (or prompt); without the grant, colour is off.
 */
function colorAllowed(proc: Proc, env: (name: string) => string | undefined): boolean {
  const deno = (globalThis as { Deno?: { permissions: { querySync(d: { name: 'env' }): { state: string } } } }).Deno;
  if (deno && deno.permissions.querySync({ name: 'env' }).state !== 'granted') return false;
  if (env('NO_COLOR') !== undefined && env('NO_COLOR') !== '') return false;
  const force = env('FORCE_COLOR');
  if (force !== undefined) return force !== '0' && force !== 'false';
  return env('TERM') !== 'dumb' && mayBeTerminal(1) && proc.stdout.isTTY === true;
}

/**
 * Whether descriptor `fd` may be a terminal: a character device other than
 * /dev/null. Asked before `process.stdout.isTTY` because creating that stream
 * loads Node's streams and net modules (~10 % of a small command's start-up)
 * while the output goes through {@link fdWriter}; a pipe, a file or /dev/null
 * is answered by an fstat or two.
 */
function mayBeTerminal(fd: number): boolean {
  const get = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule;
  const fs = typeof get === 'function' ? (get('node:fs') as typeof import('node:fs') | undefined) : undefined;
  try {
    if (!fs) return true;
    const stat = fs.fstatSync(fd);
    return stat.isCharacterDevice() && stat.rdev !== fs.statSync('/dev/null').rdev;
  } catch {
    return true;
  }
}

/**
 * A writer straight to a file descriptor: creating process.stdout/stderr
 * streams costs ~15 ms of Bun's start-up, a third of a whole append. The
 * stream is the fallback for a non-blocking descriptor that is full (EAGAIN);
 * a reader that went away (`acp types | head -1`) is not our error.
 */
async function fdWriter(fd: 1 | 2, stream: () => Stream): Promise<((text: string) => void) & { streamed?: boolean }> {
  const { writeSync } = await builtinModule('node:fs', () => import('node:fs'));
  let fallback: ((bytes: Uint8Array) => void) | undefined;
  const write: ((text: string) => void) & { streamed?: boolean } = (text: string): void => {
    // A name that came in as bytes that are not UTF-8 goes out as those bytes (Python's stdout) or as \udcff (its stderr).
    let bytes = encodeForStream(text, fd === 1 ? 'stdout' : 'stderr');
    if (fallback) return fallback(bytes);
    while (bytes.length) {
      try {
        bytes = bytes.subarray(writeSync(fd, bytes));
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'EAGAIN') return; // closed pipe
        const target = stream();
        write.streamed = true;
        target.on?.('error', () => undefined);
        fallback = (chunk) => {
          try {
            target.write(chunk);
          } catch {
            // closed pipe
          }
        };
        return fallback(bytes);
      }
    }
  };
  return write;
}

/**
 * The arguments as Python sees them: decoded from UTF-8 with
 * `surrogateescape`, so a byte that is not UTF-8 (`$'s\xff'`) is U+DCFF,
 * printed as `'s\udcff'` and written back as the same byte in a file name.
 * The runtimes hand argv already decoded with U+FFFD in its place: an
 * argument holding U+FFFD is read again, as bytes, from /proc/self/cmdline
 * (whose last entries are the arguments, on Node, Bun, the compiled binary
 * and Deno alike), checked to decode to what the runtime gave. `undefined`
 * when that is impossible (no /proc, Deno without the read grant): the
 * caller refuses rather than guess.
 */
async function commandLine(proc: Proc): Promise<string[] | undefined> {
  const given = proc.argv.slice(2);
  // Valid UTF-8 decodes exactly; only a U+FFFD may stand for other bytes.
  if (!given.some((arg) => arg.includes('\ufffd'))) return given;
  const deno = (globalThis as { Deno?: { permissions: { querySync(d: { name: 'read'; path: string }): { state: string } } } }).Deno;
  if (deno && deno.permissions.querySync({ name: 'read', path: '/proc/self/cmdline' }).state !== 'granted') return undefined;
  let raw: Uint8Array;
  try {
    const { readFileSync } = await builtinModule('node:fs', () => import('node:fs'));
    raw = readFileSync('/proc/self/cmdline');
  } catch {
    return undefined;
  }
  const entries: Uint8Array[] = [];
  for (let start = 0, end = raw.indexOf(0); end !== -1; start = end + 1, end = raw.indexOf(0, start)) entries.push(raw.subarray(start, end));
  const tail = entries.slice(-given.length);
  const decoder = new TextDecoder();
  if (tail.length !== given.length || tail.some((bytes, k) => decoder.decode(bytes) !== given[k])) return undefined;
  return tail.map(decodeSurrogateEscape);
}

/** Run the CLI for this process and set its exit code. */
export async function runProcess(run: (io: CliIo, host: Awaited<ReturnType<typeof createNodeHost>>) => Promise<number>): Promise<void> {
  const proc = (globalThis as unknown as { process: Proc }).process;
  const env = envReader(proc);
  const controller = new AbortController();
  let stoppedWith: number | undefined;
  // SIGINT/SIGTERM abort the command (a wait ends, held locks are released
  // by their finally blocks); a command that does not stop by itself within
  // the grace period is ended as the default handler would have ended it.
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    proc.on?.(signal, () => {
      stoppedWith ??= code;
      controller.abort();
      setTimeout(() => proc.exit(code), SIGNAL_GRACE_MS).unref?.();
    });
  }
  const stdout = await fdWriter(1, () => proc.stdout);
  const stderr = await fdWriter(2, () => proc.stderr);
  const argv = await commandLine(proc);
  if (!argv) {
    stderr("error: an argument holds U+FFFD, and this runtime cannot read the command line's bytes (Linux's /proc/self/cmdline; Deno needs --allow-read=/proc/self/cmdline): acp cannot tell U+FFFD from a byte that is not UTF-8, and would otherwise write a different name or text than the one given\n");
    return proc.exit(2);
  }
  const io: CliIo = {
    argv,
    stdout,
    stderr,
    color: colorAllowed(proc, env),
    runtime: await createProcessRuntime(),
    env,
    signal: controller.signal,
  };
  const exitCode = await run(io, await createNodeHost({ syncFs: true }));
  // An aborted command exits 130 (AcpAbortError); the process says which
  // signal stopped it, so SIGTERM gives 143 as the README promises.
  proc.exitCode = exitCode === 130 && stoppedWith !== undefined ? stoppedWith : exitCode;
  // The command is done and its output was written synchronously: exiting
  // now spares Node's wait for its background compiler and GC threads (~1 ms
  // of a small command). Output that fell back to a stream is left to drain.
  if (!stdout.streamed && !stderr.streamed) proc.exit(proc.exitCode);
}

/** How long a command's output may still arrive after it exited (its pipes drain in microseconds unless something else holds them). */
const OUTPUT_AFTER_EXIT_MS = 2000;

/**
 * This process's capabilities for plugins. Running commands goes through
 * node:child_process, which Node, Bun and Deno all provide (Deno asks for
 * `--allow-run`); Deno's read permissions are queried so that looking for
 * acp.config.yaml never prompts.
 */
export async function createProcessRuntime(): Promise<RuntimeFacts> {
  const g = globalThis as {
    Deno?: { permissions: { querySync(descriptor: { name: 'read'; path: string }): { state: string } } };
    Bun?: unknown;
    process?: { env: Record<string, string | undefined> };
  };
  const deno = g.Deno;
  const name: RuntimeFacts['name'] = deno ? 'deno' : g.Bun ? 'bun' : g.process ? 'node' : 'unknown';
  const run: RuntimeFacts['run'] = async (command, options = {}) => {
    const { spawn } = await import('node:child_process');
    const [file, ...args] = command;
    if (!file) throw new Error('run: empty command');
    const env = { ...g.process?.env, ...options.env };
    return new Promise((resolve, reject) => {
      let child: ReturnType<typeof spawn>;
      try {
        child = spawn(file, args, { cwd: options.cwd, env, shell: false, detached: options.detached, stdio: options.detached ? 'ignore' : [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
        if (options.input !== undefined && !options.detached) child.stdin?.end(options.input);
      } catch (error) {
        reject(new Error(`cannot run ${file}: ${(error as Error).message}${name === 'deno' ? ' (Deno needs --allow-run)' : ''}`));
        return;
      }
      const output = { stdout: '', stderr: '' };
      const limit = 64 * 1024;
      child.stdout?.on('data', (chunk: Uint8Array) => void (output.stdout = (output.stdout + chunk).slice(-limit)));
      child.stderr?.on('data', (chunk: Uint8Array) => void (output.stderr = (output.stderr + chunk).slice(-limit)));
      const timer = options.timeoutMs && !options.detached ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
      child.on('error', (error: Error & { code?: string }) => {
        clearTimeout(timer);
        reject(new Error(error.code === 'ENOENT' ? `command not found: ${file}` : `cannot run ${file}: ${error.message}`));
      });
      if (options.detached) {
        child.on('spawn', () => {
          child.unref();
          resolve({ code: 0, ...output });
        });
        return;
      }
      let drained: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      const finish = (code: number | null): void => {
        done = true;
        clearTimeout(timer);
        clearTimeout(drained);
        resolve({ code, ...output });
      };
      child.on('close', finish);
      // 'close' waits for every holder of the output pipes: a daemon the command left behind (git's
      // credential-cache) holds them for minutes. Once the command exited, its output gets a bound.
      child.on('exit', (code: number | null) => {
        if (done) return;
        drained = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish(code);
        }, OUTPUT_AFTER_EXIT_MS);
      });
    });
  };
  const mayRead = deno ? (path: string): boolean => deno.permissions.querySync({ name: 'read', path }).state === 'granted' : undefined;
  const uid = currentUid(g);
  const facts: RuntimeFacts = mayRead ? { name, run, mayRead } : { name, run };
  if (uid !== undefined) facts.uid = uid;
  // run() hands its children this same environment: what they will see, read when asked.
  if (g.process?.env) facts.env = (variable) => g.process?.env[variable];
  return facts;
}

/** The user id, asked only where that needs no permission prompt (Deno: `--allow-sys=uid`). */
function currentUid(g: { Deno?: unknown; process?: unknown }): number | undefined {
  const deno = g.Deno as { uid?(): number | null; permissions: { querySync(descriptor: { name: 'sys'; kind: 'uid' }): { state: string } } } | undefined;
  if (deno) return deno.permissions.querySync({ name: 'sys', kind: 'uid' }).state === 'granted' ? (deno.uid?.() ?? undefined) : undefined;
  return (g.process as { getuid?(): number } | undefined)?.getuid?.();
}
