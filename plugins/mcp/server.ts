/**
 * `acp mcp`: the protocol as MCP tools and resources over stdio, with the
 * official TypeScript SDK. Loaded only by the `mcp` command (plugins/mcp.ts);
 * the distributable keeps it, with the SDK and zod, in dist/acp-mcp.mjs
 * beside dist/acp.mjs, so no other command pays for it.
 *
 * Every refusal comes back as a tool result with `isError: true` and the very
 * line the CLI prints on stderr (`error: {message}`).
 * @module
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { TOOL_TEXT } from './text.ts';
import {
  checkRepoRoot, clientPath, collaborationResources, findCollaborations, formatStatus, readDocument, resolveFolder, resolveResource, status, storeFlags, storeOf, withoutRoot, writeDocument, type McpEnv,
} from './tools.ts';

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
/** The default `wait` timeout: shorter than the CLI's 30 minutes, since MCP clients time tool calls out. */
const DEFAULT_MCP_WAIT_SECONDS = 300;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A tool result from text (and optional structured data). */
function ok(text: string, structured?: Record<string, unknown>): CallToolResult {
  return structured ? { content: [{ type: 'text', text }], structuredContent: structured } : { content: [{ type: 'text', text }] };
}

/**
 * Run a tool body; a refusal becomes `isError` with the CLI's stderr line.
 * Failures that are not refusals (bugs) propagate: the SDK reports them.
 */
async function guarded(env: McpEnv, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    // A symlink met beneath the root (the folder changed after the checks) is a refusal too.
    const described = env.core.describeError(env.core.symlinkRefusal(error) ?? error);
    if (!described) throw error;
    const message = withoutRoot(env, described.message);
    // The CLI prints a timeout as is (`timeout: …`), everything else as `error: …`.
    const line = error instanceof env.core.AcpTimeoutError ? message : `error: ${message}`;
    // The stable code beside the words, as the CLI's --json and the RPC error data carry it.
    return { isError: true, content: [{ type: 'text', text: line }], structuredContent: { ok: false, error: message, code: described.code, exitCode: described.exitCode } };
  }
}

const folderArg = z.string().describe(TOOL_TEXT.args.folder);
const participantArg = z.string().describe(TOOL_TEXT.args.participant);

/** Each tool's arguments: what the SDK lists as its inputSchema and what {@link guardToolCalls} checks before it runs. */
function toolInputs(core: McpEnv['core']) {
  return {
    init: {
      folder: folderArg,
      participants: z.array(z.string()).describe(TOOL_TEXT.args.participants),
      objective: z.string().describe(TOOL_TEXT.args.objective),
      completion: z.array(z.string()).describe(TOOL_TEXT.args.completion),
      primary_deliverable_type: z.string().describe(TOOL_TEXT.args.primaryType),
      primary_deliverable_file: z.string().optional().describe(TOOL_TEXT.args.primaryFile),
      primary_deliverable_checks: z.array(z.string()).optional().describe(TOOL_TEXT.args.primaryChecks),
      deliverables_mode: z.enum(['internal', 'external']).optional().describe(TOOL_TEXT.args.mode),
      deliverables_dir: z.string().optional().describe(TOOL_TEXT.args.dir),
      repo_root: z.string().optional().describe(TOOL_TEXT.args.repoRoot),
      resume: z.boolean().optional().describe(TOOL_TEXT.args.resume),
      sign: z.boolean().optional().describe(TOOL_TEXT.args.sign),
      signing_policy: z.enum(['warn', 'refuse']).optional().describe(TOOL_TEXT.args.signingPolicy),
    },
    status: { folder: folderArg, participant: participantArg.optional() },
    validate: { folder: folderArg },
    append: {
      folder: folderArg,
      participant: participantArg,
      event: z.enum(core.EVENT_NAMES).describe(TOOL_TEXT.args.event),
      summary: z.string().describe(TOOL_TEXT.args.summary),
      doc: z.string().optional().describe(TOOL_TEXT.args.doc),
      reply_to: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe(TOOL_TEXT.args.replyTo),
      role: z.enum(['primary', 'supporting']).optional().describe(TOOL_TEXT.args.role),
      sha256: z.string().optional().describe(TOOL_TEXT.args.sha256),
    },
    wait: { folder: folderArg, participant: participantArg, timeout_seconds: z.number().min(0).optional().describe(TOOL_TEXT.args.timeout) },
    read_document: { folder: folderArg, doc: z.string().describe(TOOL_TEXT.args.readDoc) },
    write_document: {
      folder: folderArg,
      doc: z.string().describe(TOOL_TEXT.args.writeDoc),
      content: z.string().describe(TOOL_TEXT.args.content),
      append: z.boolean().optional().describe(TOOL_TEXT.args.append),
    },
    freeze: { folder: folderArg, participant: participantArg, doc: z.string().optional().describe(TOOL_TEXT.args.freezeDoc), summary: z.string().optional().describe(TOOL_TEXT.args.summary) },
  } satisfies Record<string, z.ZodRawShape>;
}
type ToolInputs = ReturnType<typeof toolInputs>;

/** Register init, status, validate and append. */
function registerProtocolTools(server: McpServer, env: McpEnv, inputs: ToolInputs): void {
  const { core, host, registry } = env;
  server.registerTool(
    'init',
    {
      description: TOOL_TEXT.init,
      inputSchema: inputs.init,
    },
    (args) =>
      guarded(env, async () => {
        const folder = await resolveFolder(env, args.folder);
        await checkRepoRoot(env, folder, args.repo_root);
        const result = await core.init(
          host,
          folder,
          {
            participants: args.participants, objective: args.objective, completion: args.completion, primaryType: args.primary_deliverable_type,
            primaryFile: args.primary_deliverable_file, primaryChecks: args.primary_deliverable_checks, mode: args.deliverables_mode, dir: args.deliverables_dir,
            repoRoot: args.repo_root, resume: args.resume, sign: args.sign, signingPolicy: args.signing_policy,
          },
          registry,
        );
        // The folder as the client named it (relative to the root): the server's absolute paths stay with the server.
        const named = clientPath(env, folder);
        const text = result.created ? `Initialized ACP schema v2 collaboration folder: ${named}` : `Collaboration folder already exists: ${named}`;
        return ok(text, { created: result.created, folder: named, files: result.files });
      }),
  );
  server.registerTool(
    'status',
    { description: TOOL_TEXT.status, inputSchema: inputs.status, annotations: { readOnlyHint: true } },
    (args) =>
      guarded(env, async () => {
        const report = await status(env, await resolveFolder(env, args.folder), args.participant);
        return ok(formatStatus(core, report), { ...report });
      }),
  );
  server.registerTool('validate', { description: TOOL_TEXT.validate, inputSchema: inputs.validate, annotations: { readOnlyHint: true } }, (args) =>
    guarded(env, async () => {
      const checked = await core.validate(host, await resolveFolder(env, args.folder), registry, { strict: core.strictSetting(registry, true) });
      const result = { ...checked, errors: checked.errors.map((e) => withoutRoot(env, e)), warnings: checked.warnings.map((w) => withoutRoot(env, w)) };
      const lines = [result.errors.length ? 'ACP validation failed' : result.warnings.length ? 'ACP validation passed with warnings' : 'ACP validation passed'];
      for (const error of result.errors) lines.push(`ERROR: ${error}`);
      for (const warning of result.warnings) lines.push(`WARNING: ${warning}`);
      return ok(lines.join('\n'), { ok: result.ok, errors: result.errors, warnings: result.warnings });
    }),
  );
  server.registerTool(
    'append',
    {
      description: TOOL_TEXT.append,
      inputSchema: inputs.append,
    },
    (args) =>
      guarded(env, async () => {
        const folder = await resolveFolder(env, args.folder);
        const request = { participant: args.participant, event: args.event, summary: args.summary, doc: args.doc, replyTo: args.reply_to, role: args.role, sha256: args.sha256 };
        // Strict: an agent's append never leaves the folder failing validate (acp.config.yaml's strict: false turns it off).
        const result = await core.append(host, folder, request, registry, { store: await storeOf(env, folder), strict: core.strictSetting(registry, true) });
        return ok(`appended seq ${result.event.seq}: ${result.event.event}`, { event: result.event, phase: result.state.phase, waitingFor: result.state.waitingFor });
      }),
  );
}

/** Register wait: blocks until the participant's turn, with progress notifications and cancellation. */
function registerWait(server: McpServer, env: McpEnv, inputs: ToolInputs): void {
  const { core, host, registry } = env;
  server.registerTool(
    'wait',
    {
      description: TOOL_TEXT.wait,
      inputSchema: inputs.wait,
      annotations: { readOnlyHint: true },
    },
    (args, extra: Extra) =>
      guarded(env, async () => {
        const folder = await resolveFolder(env, args.folder);
        const progress = progressReporter(extra);
        try {
          const result = await core.waitForTurn(
            host,
            folder,
            args.participant,
            { timeoutSeconds: args.timeout_seconds ?? DEFAULT_MCP_WAIT_SECONDS, signal: extra.signal, onProgress: progress.report, store: await storeOf(env, folder) },
            registry,
          );
          return ok(`${result.reason}\n${core.formatNext(result.next)}`, { ready: result.reason.slice('ready: '.length), ...result.next });
        } finally {
          progress.stop();
        }
      }),
  );
}

/** Sends `notifications/progress` for each `waiting: …` line, and a heartbeat while nothing changes. */
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

/** Register read_document, write_document and freeze. */
function registerDocumentTools(server: McpServer, env: McpEnv, inputs: ToolInputs): void {
  server.registerTool(
    'read_document',
    { description: TOOL_TEXT.readDocument, inputSchema: inputs.read_document, annotations: { readOnlyHint: true } },
    (args) =>
      guarded(env, async () => {
        const result = await readDocument(env, await resolveFolder(env, args.folder), args.doc);
        return ok(result.content, { doc: result.doc });
      }),
  );
  server.registerTool(
    'write_document',
    {
      description: TOOL_TEXT.writeDocument,
      inputSchema: inputs.write_document,
    },
    (args) =>
      guarded(env, async () => {
        const result = await writeDocument(env, await resolveFolder(env, args.folder), args.doc, args.content, args.append);
        return ok(`wrote ${result.doc} (${result.bytes} bytes, sha256 ${result.sha256})`, { ...result });
      }),
  );
  server.registerTool(
    'freeze',
    {
      description: TOOL_TEXT.freeze,
      inputSchema: inputs.freeze,
    },
    (args) =>
      guarded(env, async () => {
        const folder = await resolveFolder(env, args.folder);
        // The same freeze as `acp freeze` (plugin humans): one lock, checks first, nothing changed on a refusal.
        const options = { ...storeFlags(env), folder, participant: args.participant, doc: args.doc, summary: args.summary, strict: env.core.strictSetting(env.registry, true), json: true };
        const { json } = await env.core.runCommand(env.registry, 'freeze', { options }, { host: env.host });
        const result = json as { seq: number; sha256: string; changed: string[] };
        const text = `appended seq ${result.seq}: deliverable_frozen\nsha256: ${result.sha256}\nchanged: ${result.changed.join(', ') || 'nothing else'}`;
        return ok(text, { ...result });
      }),
  );
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
 * The arguments' problems in words an agent can act on: `reply_to: expected
 * number, received string; participant: required`.
 */
function argumentProblems(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.map(String).join('.') || 'arguments';
      const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
      return `${where}: ${missing ? 'required' : issue.message.replace(/^Invalid input: /, '')}`;
    })
    .join('; ');
}

/**
 * tools/call as the MCP specification (2025-11-25, SEP-1303) says: a tool
 * the server does not have is a JSON-RPC error (-32602, a protocol error);
 * arguments that do not fit the tool's inputSchema are a tool result with
 * isError (an input error the model can correct), worded as the CLI words a
 * refusal (`error: …`), not the SDK's "MCP error -32602: …" text. The SDK
 * keeps its handler private: it is wrapped, and the server refuses to start
 * if it cannot be.
 */
function guardToolCalls(server: McpServer, inputs: ToolInputs): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, (request: { params?: { name?: unknown; arguments?: unknown } }, extra: unknown) => Promise<unknown>> })._requestHandlers;
  const sdkHandler = handlers?.get('tools/call');
  if (!handlers || !sdkHandler) throw new Error('the MCP SDK no longer keeps its tools/call handler where acp wraps it');
  const names = Object.keys(inputs).sort();
  handlers.set('tools/call', async (request, extra) => {
    const name = request.params?.name;
    if (typeof name !== 'string' || !Object.hasOwn(inputs, name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(name)} (tools: ${names.join(', ')})`);
    const checked = z.object(inputs[name as keyof ToolInputs]).safeParse(request.params?.arguments ?? {});
    if (!checked.success) {
      const message = `invalid arguments for tool ${name}: ${argumentProblems(checked.error)} (see the tool's inputSchema)`;
      return { isError: true, content: [{ type: 'text', text: `error: ${message}` }], structuredContent: { ok: false, error: message, code: 'usage', exitCode: 2 } };
    }
    return sdkHandler(request, extra);
  });
}

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
  const inputs = toolInputs(env.core);
  registerProtocolTools(server, env, inputs);
  registerWait(server, env, inputs);
  registerDocumentTools(server, env, inputs);
  registerResources(server, env);
  guardToolCalls(server, inputs);
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
