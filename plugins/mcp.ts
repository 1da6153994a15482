/**
 * `acp mcp [--root DIR]`: serve the protocol as MCP tools and resources over
 * stdio, for agents whose client speaks MCP (Claude Code, Codex, Cursor…).
 *
 * This module is the command's spec only; the server (and the MCP SDK it
 * bundles) is imported when the command runs. In dist/ it is the file
 * acp-mcp.mjs beside acp.mjs (scripts/build.mjs rewrites the import); the
 * compiled binary carries it inside.
 * @module
 */
import type { Host } from '../acp.ts';
import { errorCode } from './core/util.ts';
import type { McpCore } from './mcp/tools.ts';

/** What the command needs from the CLI (a subset of the command context). */
export interface McpCommandContext {
  options: Record<string, string | string[] | boolean | undefined>;
  api: McpCore;
  host: Host;
  registry: import('../acp.ts').Registry;
  signal: AbortSignal;
}

/** Resolve `--root` (default: the working directory) to its real path; refuse a missing one. */
export async function resolveRoot(ctx: Pick<McpCommandContext, 'options' | 'api' | 'host'>): Promise<string> {
  const given = typeof ctx.options.root === 'string' ? ctx.options.root : '.';
  const root = ctx.host.resolvePath(given);
  const stat = await ctx.host.fs.stat(root);
  if (!stat?.isDirectory) throw new ctx.api.AcpError(`--root ${root} is not a directory`);
  return ctx.host.fs.realpath(root);
}

/** Load the server module; a copy of acp.mjs without acp-mcp.mjs beside it says what to do. */
async function loadServer(api: McpCore): Promise<typeof import('./mcp/server.ts')> {
  try {
    return await import('./mcp/server.ts');
  } catch (error) {
    if (errorCode(error) !== 'ERR_MODULE_NOT_FOUND' && !/Cannot find module|Module not found/.test(String(error))) throw error;
    throw new api.AcpError('the MCP server (acp-mcp.mjs) is not installed beside this acp; run `npx -y acp-collab mcp` or the release binary instead');
  }
}

/** The `mcp` command. */
export const mcpCommand = {
  name: 'mcp',
  description: 'Serve the protocol as MCP tools (init, status, wait, append, validate, read_document, write_document, freeze) over stdio',
  options: {
    root: { type: 'string', description: 'Folder the collaborations live in; tools refuse folders outside it (default: the working directory)', valueName: 'dir' },
  },
  async run(ctx: McpCommandContext & { version?: string }): Promise<number> {
    const root = await resolveRoot(ctx);
    const { serveMcp } = await loadServer(ctx.api);
    await serveMcp({ core: ctx.api, host: ctx.host, registry: ctx.registry, root, version: ctx.version ?? '0.1.0', signal: ctx.signal });
    return 0;
  },
} as const;
