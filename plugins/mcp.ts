/**
 * Built-in plugin `mcp`: `acp mcp [--root DIR]` serves the protocol as MCP
 * tools and resources over stdio, for agents whose client speaks MCP (Claude
 * Code, Codex, Cursor…).
 *
 * This module only describes the command; the server (and the MCP SDK it
 * bundles) is imported when the command runs. In dist/ it is the file
 * acp-mcp.mjs beside acp.mjs (scripts/bundle.ts rewrites the import); the
 * compiled binary carries it inside.
 * @module
 */
import type { AcpApi, AcpPlugin, CommandContext, CommandSpec, PluginContext } from '../runtime/types.ts';

/** `--root` (default: the working directory) as a real path; a usage error when it is not a directory. */
async function resolveRoot(ctx: CommandContext): Promise<string> {
  const given = typeof ctx.options.root === 'string' ? ctx.options.root : '.';
  const root = ctx.host.resolvePath(given);
  const stat = await ctx.host.fs.stat(root);
  if (!stat?.isDirectory) throw new ctx.api.UsageError(`--root ${root} is not a directory`);
  return ctx.host.fs.realpath(root);
}

/** Load the server; a copy of acp.mjs without acp-mcp.mjs beside it says what to do instead. */
async function loadServer(api: AcpApi): Promise<typeof import('./mcp/server.ts')> {
  try {
    return await import('./mcp/server.ts');
  } catch (error) {
    if (api.errorCode(error) !== 'ERR_MODULE_NOT_FOUND' && !/Cannot find module|Module not found/.test(String(error))) throw error;
    throw new api.AcpError('the MCP server (acp-mcp.mjs) is not beside this acp.mjs; run `npx -y acp-collab mcp` or a release binary instead');
  }
}

const mcpCommand: CommandSpec = {
  name: 'mcp',
  description: 'Serve the protocol as MCP tools (init, status, wait, append, validate, read_document, write_document, freeze) over stdio',
  // The tools write and wait through the folders' store (`mcp --git`, or the configuration).
  store: true,
  options: {
    root: { type: 'string', valueName: 'dir', description: 'Folder the collaborations live in; tools refuse folders outside it (default: the working directory)' },
  },
  async run(ctx) {
    const root = await resolveRoot(ctx);
    const { serveMcp } = await loadServer(ctx.api);
    await serveMcp({ core: ctx.api, host: ctx.host, registry: ctx.registry, root, version: ctx.api.VERSION, signal: ctx.signal, storeFlags: ctx.options });
    // The end of stdin ends the server normally; Ctrl-C or SIGTERM is the aborted command's exit (130/143), without an error line.
    if (ctx.signal.aborted) throw new ctx.api.AcpAbortError();
    return 0;
  },
};

/** The `mcp` plugin. */
export default (context: PluginContext): AcpPlugin => context.definePlugin({ name: 'mcp', commands: [mcpCommand] });
