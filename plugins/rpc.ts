/**
 * Built-in plugin `rpc`: the Agent Communication Protocol (JSON-RPC 2.0)
 * server and client as commands — `acp serve`, `acp rpc`, and `acp wait
 * --server` (an extension of the protocol's `wait`). This module only
 * describes the commands; plugins/rpc/ loads when one of them runs.
 * @module
 */
import type { AcpPlugin, CommandSpec, PluginContext } from '../runtime/types.ts';

const str = (description: string, valueName?: string) => ({ type: 'string', description, valueName }) as const;
const flag = (description: string) => ({ type: 'boolean', description }) as const;

const serveCommand: CommandSpec = {
  name: 'serve',
  description: "Serve the collaborations (Agent Collaboration Protocol folders) under a folder over JSON-RPC 2.0, with the Agent Communication Protocol's methods",
  // Its writes and watchers go through the folders' store (`serve --git`).
  store: true,
  options: {
    root: str("Folder whose sub-folders are the collaborations (default: the config's root, else the working directory)", 'dir'),
    config: str('Server config (YAML): tokens, limits, transports', 'file'),
    stdio: flag('Serve on stdin/stdout (the spawning process is trusted)'),
    tcp: str('Serve on TCP host:port (loopback unless --allow-remote; clients authenticate with a token)', 'address'),
    unix: str('Serve on a Unix socket (created owner-only)', 'path'),
    'allow-remote': flag('Allow a non-loopback --tcp address'),
  },
  async run(ctx) {
    const { serveCommand: serve, rpcContext } = await import('./rpc/cli.ts');
    return serve(ctx.options, rpcContext(ctx));
  },
};

const rpcCommand: CommandSpec = {
  name: 'rpc',
  description: 'Call one JSON-RPC method of an `acp serve` endpoint; params are JSON',
  args: ['method', 'params?'],
  options: {
    server: str('tcp://host:port, tls://host:port, host:port or unix:/path (or ACP_SERVER)', 'endpoint'),
    ca: str('With a tls:// server: verify its certificate against these CAs (PEM) instead of the system ones', 'file'),
    token: str('Token the server maps to your participant id (or ACP_TOKEN)'),
    'token-file': str('Read the token from this file', 'file'),
    participant: str('On a Unix socket without a token: the participant this call speaks for', 'id'),
    timeout: { type: 'seconds', description: 'Give up waiting for the answer after this long', valueName: 'seconds' },
    'param-file': { type: 'string', multiple: true, valueName: 'key=file', description: "Set a param (dotted path, e.g. args.content) to a file's text (repeatable)" },
    json: flag('Print one JSON line even on a terminal'),
  },
  async run(ctx) {
    const { rpcCommand: call, rpcContext } = await import('./rpc/cli.ts');
    return call(ctx.args.method!, ctx.args.params, ctx.options, rpcContext(ctx));
  },
};

/** `wait --server`: the same wait, by subscription to a server instead of watching a folder. */
const waitExtension: CommandSpec = {
  name: 'wait',
  extend: true,
  // With --server it waits on the server's folder, not this one: a store's flag (--git) or another plugin's option is refused with it.
  answers: ['server'],
  description: 'Wait by subscription to an `acp serve` endpoint',
  // The CLI's only (doors: false): an MCP wait waits on its own server's folder.
  options: {
    server: { ...str('Wait by subscription to an `acp serve` endpoint (tcp://host:port or unix:/path); --folder is then the task name', 'endpoint'), doors: false },
    token: { ...str('With --server: the token the server maps to --participant (or ACP_TOKEN)'), doors: false },
    'token-file': { ...str('With --server: read the token from this file', 'file'), doors: false },
    ca: { ...str('With a tls:// --server: verify its certificate against these CAs (PEM)', 'file'), doors: false },
  },
  async run(ctx) {
    if (ctx.options.server === undefined) {
      for (const name of ['token', 'token-file', 'ca']) if (ctx.options[name] !== undefined) throw new ctx.api.UsageError(`argument --${name}: only with --server`);
      return ctx.next();
    }
    const { waitViaServer, rpcContext } = await import('./rpc/cli.ts');
    return waitViaServer(ctx.options, rpcContext(ctx));
  },
};

/** The `rpc` plugin. */
export default (context: PluginContext): AcpPlugin => context.definePlugin({ name: 'rpc', commands: [serveCommand, rpcCommand, waitExtension] });
