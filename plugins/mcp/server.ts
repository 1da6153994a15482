/**
 * `acp mcp`: the protocol as MCP tools and resources over stdio, with the
 * official TypeScript SDK. Loaded only by the `mcp` command (plugins/mcp.ts);
 * the distributable keeps it, with the SDK, in dist/acp-mcp.mjs beside
 * dist/acp.mjs, so no other command pays for it.
 *
 * The tools are read from the one table: every command whose spec lists the
 * `mcp` door is a tool whose inputSchema is derived from the command's
 * options (runtime/doors.ts), whose arguments are checked by the core's one
 * check (the CLI's words) and which runs the command itself; status,
 * read_document and write_document are the server's own. A refusal comes
 * back as a tool result with `isError: true` and the very line the CLI
 * prints on stderr (`error: {message}`).
 * @module
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type ServerNotification, type ServerRequest, type Tool as ListedTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CommandOptionSpec, CommandSpec, Json, OptionValues } from '../../runtime/types.ts';
import { OWN_TOOL_OPTIONS, TOOL_TEXT } from './text.ts';
import { checkRepoRoot, collaborationResources, findCollaborations, formatStatus, readDocument, resolveFolder, resolveResource, status, withoutRoot, writeDocument, type McpEnv } from './tools.ts';

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions extends McpEnv {
  version: string;
  /** Stops the server (SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** Where the protocol is spoken; default this process's stdin/stdout. */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** How often a waiting `wait` tells the client it is alive (clients reset their request timeout on progress). */
const HEARTBEAT_MS = 15_000;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** One tool: what the model reads, its arguments as option data, and what a call does with the checked values. */
interface Tool {
  name: string;
  description: string;
  options: Readonly<Record<string, CommandOptionSpec>>;
  readOnly: boolean;
  /** Check `args` (the one check, runtime/doors.ts) and run the tool; refusals are thrown. */
  call(args: Readonly<Record<string, unknown>>, extra: Extra): Promise<CallToolResult>;
}

/** The tools that only look (MCP's readOnlyHint); any other tool, a new command's included, may write. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['status', 'validate', 'wait', 'read_document']);

/** A tool result from text (and optional structured data). */
function ok(text: string, structured?: Record<string, unknown>): CallToolResult {
  return structured ? { content: [{ type: 'text', text }], structuredContent: structured } : { content: [{ type: 'text', text }] };
}

/**
 * Run a tool body; a refusal becomes `isError` with the CLI's stderr line
 * (`error: …`), its stable code beside it, as the CLI's --json and the RPC
 * error data carry it. Failures that are not refusals (bugs) propagate.
 */
async function guarded(env: McpEnv, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    // A symlink met beneath the root (the folder changed after the checks) is a refusal too.
    const described = env.core.describeError(env.core.symlinkRefusal(error) ?? error);
    if (!described) throw error;
    const message = withoutRoot(env, described.message);
    return { isError: true, content: [{ type: 'text', text: `error: ${message}` }], structuredContent: { ok: false, error: message, code: described.code, exitCode: described.exitCode } };
  }
}

/**
 * The tool of a command that lists the `mcp` door: its arguments are the
 * command's options as the door names them, and a call runs the command (as
 * the CLI would, with what the server decides: the folder inside the root,
 * its store, strictness). The answer is what the command prints on stdout,
 * its JSON as structured content; a command that answered nothing on stdout
 * and exits non-zero (wait's timeout) is an error in its stderr words.
 */
function commandTool(env: McpEnv, spec: CommandSpec, name: string): Tool {
  const { core, registry } = env;
  return {
    name,
    description: TOOL_TEXT[name as keyof typeof TOOL_TEXT] ?? spec.description,
    options: spec.options ?? {},
    readOnly: READ_ONLY_TOOLS.has(name),
    async call(args, extra) {
      const options = core.serverOptions(registry, spec, args, 'mcp', { storeFlags: env.storeFlags });
      if (typeof options.folder === 'string') options.folder = await resolveFolder(env, options.folder);
      if (typeof options['repo-root'] === 'string') await checkRepoRoot(env, options.folder as string, options['repo-root']);
      const out: string[] = [];
      const err: string[] = [];
      const progress = progressReporter(extra);
      try {
        const result = await core.runCommand(registry, spec.name, { options }, { host: env.host, out: (line) => out.push(line), err: (line) => err.push(line), progress: progress.report, signal: extra.signal });
        const json = core.jsonWithoutRoot(env.root, (result.json ?? { ok: result.exitCode === 0, exitCode: result.exitCode }) as Record<string, Json>);
        if (result.exitCode !== 0 && !out.length) return { isError: true, content: [{ type: 'text', text: withoutRoot(env, err.join('\n')) }], structuredContent: json };
        return ok(withoutRoot(env, out.join('\n')), json);
      } finally {
        progress.stop();
      }
    },
  };
}

/** Sends `notifications/progress` for each line a command reports, and a heartbeat while nothing changes. */
function progressReporter(extra: Extra): { report(line: string): void; stop(): void } {
  const token = extra._meta?.progressToken;
  let count = 0;
  let last = 'waiting';
  const send = (): void => {
    if (token === undefined) return;
    count++;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: count, message: last } }).catch(() => undefined);
  };
  const timer = token === undefined ? undefined : setInterval(send, HEARTBEAT_MS);
  return {
    report(line) {
      last = line;
      send();
    },
    stop: () => clearInterval(timer),
  };
}

/** The server's own tools: status, read_document and write_document, their arguments checked as a command's are. */
function ownTools(env: McpEnv): Tool[] {
  const tool = <O extends Record<string, CommandOptionSpec>>(name: keyof typeof OWN_TOOL_OPTIONS, options: O, run: (values: OptionValues, folder: string) => Promise<CallToolResult>): Tool => ({
    name,
    description: TOOL_TEXT[name],
    options,
    readOnly: READ_ONLY_TOOLS.has(name),
    async call(args) {
      const values = env.core.optionsFromDoor(options, args, 'mcp');
      return run(values, await resolveFolder(env, values.folder as string));
    },
  });
  return [
    tool('status', OWN_TOOL_OPTIONS.status, async (values, folder) => {
      const report = await status(env, folder, values.participant as string | undefined);
      return ok(formatStatus(env.core, report), { ...report });
    }),
    tool('read_document', OWN_TOOL_OPTIONS.read_document, async (values, folder) => {
      const result = await readDocument(env, folder, values.doc as string);
      return ok(result.content, { doc: result.doc });
    }),
    tool('write_document', OWN_TOOL_OPTIONS.write_document, async (values, folder) => {
      const result = await writeDocument(env, folder, values.doc as string, values.content as string, values.append === true);
      return ok(`wrote ${result.doc} (${result.bytes} bytes, sha256 ${result.sha256})`, { ...result });
    }),
  ];
}

/** Every tool: the commands that list the `mcp` door (the one table), then the server's own. */
function allTools(env: McpEnv): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const { spec } of env.registry.commands.values()) if (spec.doors?.mcp) tools.set(spec.doors.mcp, commandTool(env, spec, spec.doors.mcp));
  for (const tool of ownTools(env)) tools.set(tool.name, tool);
  return tools;
}

/**
 * tools/list and tools/call, as the MCP specification (2025-11-25, SEP-1303)
 * says: each tool's inputSchema is derived from its options; a tool the
 * server does not have is a JSON-RPC error (-32602, a protocol error);
 * arguments the core's check refuses are a tool result with isError (an
 * input error the model can correct), in the CLI's words, as every refusal.
 */
function registerTools(server: McpServer, env: McpEnv): void {
  const tools = allTools(env);
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((tool): ListedTool => ({
      name: tool.name,
      description: tool.description,
      inputSchema: env.core.doorSchema(tool.options, 'mcp') as unknown as ListedTool['inputSchema'],
      ...(tool.readOnly ? { annotations: { readOnlyHint: true } } : {}),
    })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name} (tools: ${[...tools.keys()].sort().join(', ')})`);
    return guarded(env, () => tool.call(request.params.arguments ?? {}, extra));
  });
}

/** Resources: protocol.json, events.jsonl and every document of the collaborations under the root. */
function registerResources(server: McpServer, env: McpEnv): void {
  const template = new ResourceTemplate('acp://collab/{+path}', {
    list: async () => {
      const resources = [];
      for (const folder of await findCollaborations(env)) resources.push(...(await collaborationResources(env, folder)));
      return { resources };
    },
  });
  server.registerResource('collaboration-document', template, { description: TOOL_TEXT.resources, mimeType: 'text/markdown' }, async (uri) => {
    let result: { content: string };
    let doc: string;
    try {
      const resolved = await resolveResource(env, uri.href);
      doc = resolved.doc;
      result = await readDocument(env, resolved.folder, doc);
    } catch (error) {
      // A refusal is the client's mistake, not the server's (-32603): -32002 for a document that is not there (MCP's "resource not found"), else invalid params.
      const described = env.core.describeError(error);
      if (!described) throw error;
      throw new McpError(described.code === 'not_found' ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, withoutRoot(env, described.message), { code: described.code });
    }
    const mimeType = doc.endsWith('.json') ? 'application/json' : doc.endsWith('.jsonl') ? 'application/jsonl' : 'text/markdown';
    return { contents: [{ uri: uri.href, mimeType, text: result.content }] };
  });
}

/** MCP's error code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * A line on stdin that is not JSON gets -32700 (parse error), JSON that is
 * not a JSON-RPC message -32600 (invalid request), both with id null, as
 * JSON-RPC 2.0 says; the SDK's stdio transport only reports them to onerror.
 */
function answerUnreadableLines(transport: StdioServerTransport): void {
  const reported = transport.onerror;
  transport.onerror = (error: Error) => {
    const code = error instanceof SyntaxError ? ErrorCode.ParseError : error.name === 'ZodError' ? ErrorCode.InvalidRequest : undefined;
    if (code !== undefined) {
      const message = code === ErrorCode.ParseError ? `Parse error: ${error.message}` : 'Invalid Request: not a JSON-RPC 2.0 message';
      void transport.send({ jsonrpc: '2.0', id: null, error: { code, message } } as never).catch(() => undefined);
    }
    reported?.(error);
  };
}

/** Build the MCP server with every tool and resource (no transport yet). */
export function createMcpServer(options: McpEnv & { version: string }): McpServer {
  const server = new McpServer({ name: 'acp', title: 'Agent Collaboration Protocol', version: options.version }, { instructions: TOOL_TEXT.instructions });
  // Beneath the root no symlink is followed: a path the tools checked cannot be redirected out of it before it is opened.
  const env: McpEnv = { core: options.core, host: options.core.confineHost(options.host, [options.root]), registry: options.registry, root: options.root, storeFlags: options.storeFlags };
  registerTools(server, env);
  registerResources(server, env);
  return server;
}

/** Serve MCP on stdio until the client closes stdin or `signal` aborts. */
export async function serveMcp(options: ServeMcpOptions): Promise<void> {
  const server = createMcpServer(options);
  const proc = await import('node:process');
  const stdin = options.stdin ?? proc.stdin;
  const stdout = options.stdout ?? proc.stdout;
  const transport = new StdioServerTransport(stdin as never, stdout as never);
  await server.connect(transport);
  answerUnreadableLines(transport);
  // The SDK's stdio transport does not notice the end of stdin: we do.
  await new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    if (options.signal?.aborted) resolve();
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close().catch(() => undefined);
}
