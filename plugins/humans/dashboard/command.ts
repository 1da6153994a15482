/**
 * `acp dashboard --root DIR`: a local web page listing every collaboration
 * under a root (title, phase, whose turn and for how long, last event,
 * validate's verdict), each with its live view, updated as events land.
 * Read-only, confined to the root, on 127.0.0.1 with a random token in the
 * URL it prints; another address only when asked (the token is still
 * required; `--tls-cert`/`--tls-key` serve HTTPS). Runs until Ctrl-C.
 * @module
 */
import type { DashboardOptions } from '../options.ts';
import type { HumansContext } from '../context.ts';
import { Board } from './board.ts';
import { isLoopbackAddress, randomToken, startServer } from './server.ts';

/** Bytes of randomness in the token (256 bits). */
const TOKEN_BYTES = 32;

/** The context of `acp dashboard`. */
type DashboardContext = HumansContext<DashboardOptions>;

/** `--port`: 0 (any free port) to 65535. */
function portOption(ctx: DashboardContext): number {
  const port = ctx.options.port ?? 0;
  if (!(port >= 0 && port <= 65535)) throw new ctx.api.UsageError(`argument --port: invalid port '${port}' (0 to 65535; 0 picks a free one)`);
  return port;
}

/** The root as a real path: every later check compares real paths with it. */
async function rootOption(ctx: DashboardContext): Promise<string> {
  const given = ctx.host.resolvePath(ctx.options.root ?? '.');
  const stat = await ctx.host.fs.stat(given);
  if (!stat?.isDirectory) throw new ctx.api.AcpError(`--root ${ctx.api.pyRepr(given)} is not a directory`);
  return ctx.host.fs.realpath(given);
}

/** `--allow-host NAME[:PORT]` (repeatable): more names the Host header may carry (a proxy's, this machine's name). */
function allowHostOption(ctx: DashboardContext): string[] {
  const names = ctx.options['allow-host'] ?? [];
  for (const name of names) {
    if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(name)) throw new ctx.api.UsageError(`argument --allow-host: invalid host name '${name}' (a name or address, optionally with :port)`);
  }
  return names;
}

/** `--tls-cert` and `--tls-key`: both or neither. */
async function tlsOption(ctx: DashboardContext): Promise<{ cert: string; key: string } | undefined> {
  const cert = ctx.options['tls-cert'];
  const key = ctx.options['tls-key'];
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) throw new ctx.api.UsageError('--tls-cert and --tls-key go together');
  const read = async (file: string): Promise<string> => ctx.api.decodeText(await ctx.host.fs.readFile(ctx.host.resolvePath(file)), file);
  return { cert: await read(cert), key: await read(key) };
}

/** Run `acp dashboard` until the process is asked to stop (exit 130/143, as every stopped command). */
export async function runDashboard(ctx: DashboardContext): Promise<number> {
  const { api } = ctx;
  const root = await rootOption(ctx);
  const port = portOption(ctx);
  const address = ctx.options.host ?? '127.0.0.1';
  const tls = await tlsOption(ctx);
  const allowHosts = allowHostOption(ctx);
  const stop = new AbortController();
  // The core's read-only view of the root: what is served to a browser is read beneath it, no symlink followed, nothing written.
  const board = new Board({ api, host: api.confineHost(ctx.host, [root], { readOnly: true }), registry: ctx.registry }, root, AbortSignal.any([ctx.signal, stop.signal]));
  try {
    await board.start();
    const rootName = root.split(/[\\/]/).filter(Boolean).at(-1) ?? root;
    let server: Awaited<ReturnType<typeof startServer>>;
    try {
      server = await startServer(board, randomToken(TOKEN_BYTES), rootName, { host: address, port, tls, allowHosts, api });
    } catch (error) {
      throw new api.AcpError(`cannot listen on ${address}:${port}: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      if (!isLoopbackAddress(address) && !tls) ctx.err(`warning: serving ${address} over plain HTTP: the token in the URL travels unencrypted (--tls-cert and --tls-key serve HTTPS)`);
      ctx.out(`dashboard: ${server.url}`);
      ctx.out(`${board.entries.size} collaboration${board.entries.size === 1 ? '' : 's'} under ${root}; read-only; Ctrl-C stops`);
      await new Promise<void>((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', () => resolve(), { once: true })));
    } finally {
      await server.close();
    }
  } finally {
    stop.abort();
  }
  throw new api.AcpAbortError();
}
