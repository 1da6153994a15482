// A command context for the humans' commands, built from the library, so
// their implementations run in this process with captured output.
import * as acp from '../../acp.ts';
import type { HumansContext } from '../../plugins/humans/context.ts';

/** What a run printed. */
export interface Captured {
  rc: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link context}. */
export interface ContextOptions {
  options?: HumansContext['options'];
  json?: boolean;
  color?: boolean;
  signal?: AbortSignal;
  host?: acp.Host;
}

/** A context for `folder`, with output collected into `out`/`err` arrays. */
export async function context(folder: string, options: ContextOptions = {}): Promise<HumansContext & { stdout: string[]; stderr: string[] }> {
  const host = options.host ?? (await acp.createNodeHost());
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    options: options.options ?? {},
    api: acp,
    host,
    registry: await acp.createRegistry(),
    out: (text) => void stdout.push(text),
    err: (text) => void stderr.push(text),
    json: options.json ?? false,
    color: options.color ?? false,
    signal: options.signal ?? new AbortController().signal,
    folder: () => host.resolvePath(folder),
    stdout,
    stderr,
  };
}

/** Run a command implementation; AcpErrors become `error: …` and their exit code, as the CLI does. */
export async function run(fn: (ctx: HumansContext) => Promise<number>, ctx: HumansContext & { stdout: string[]; stderr: string[] }): Promise<Captured> {
  let rc: number;
  try {
    rc = await fn(ctx);
  } catch (error) {
    if (!(error instanceof acp.AcpError)) throw error;
    ctx.err(`error: ${error.message}`);
    rc = error.exitCode;
  }
  return { rc, stdout: ctx.stdout.map((l) => `${l}\n`).join(''), stderr: ctx.stderr.map((l) => `${l}\n`).join('') };
}
