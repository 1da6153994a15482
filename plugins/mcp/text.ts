/**
 * The descriptions an MCP client shows the model: what each tool is for and
 * when to call it. A command's tool takes its arguments' descriptions from
 * the command's options (the one table: their help text); the server's own
 * tools declare theirs here, as option data, so that they are checked and
 * listed as a command's are. Kept apart from the glue so they read as one
 * piece of documentation.
 * @module
 */
import type { CommandOptionSpec } from '../../runtime/types.ts';

/** Tool, argument and server descriptions of `acp mcp`. */
export const TOOL_TEXT = {
  instructions:
    'Agent Collaboration Protocol (ACP): several agents produce one reviewed deliverable in a shared folder, taking turns. ' +
    'Loop: wait (until it is your turn) -> status (read the next action) -> do exactly that work with read_document/write_document -> append the event it names -> wait again; ' +
    'stop when the phase is completed or blocked. Never rewrite events.jsonl or protocol.json; never append out of turn; ' +
    'a refusal (isError) tells you what to fix first. Folders are relative to the server root.',
  init:
    'Create a new collaboration folder (protocol.json, events.jsonl, proposal.md, review.md, decisions.md, readiness.md, conclusion.md and the primary deliverable template). ' +
    'The first participant owns the proposal. Use once, by whoever starts the collaboration; with resume=true an existing folder is accepted.',
  status:
    "Where a collaboration stands: phase, proposal owner, whose turn (waitingFor), the last event, the completion gates as checked in readiness.md and the readiness items. " +
    'Give participant to also get your next action and whether it is your turn. Read-only; call it before acting.',
  wait:
    'Block until it is this participant\'s turn (listed in waitingFor) or the collaboration is completed or blocked, then return the next action. ' +
    'Sends progress notifications while waiting and stops when the call is cancelled. On timeout it returns an error starting with "timeout:"; just call wait again.',
  append:
    'Append one protocol event to events.jsonl (the only way to move the collaboration forward). Only when status/wait says it is your turn and the documents the event needs are written. ' +
    'reply_to is the seq of the event you answer (usually the latest one). A refusal names the rule that failed; nothing is written then.',
  validate:
    'Validate the whole folder against the protocol (files, log, documents, deliverables, readiness, conclusion). Returns "ACP validation passed", or ERROR/WARNING lines. ' +
    'Run it before readiness_passed and before completed.',
  read_document:
    'Read a file of a collaboration: protocol.json, events.jsonl, proposal.md, review.md, decisions.md, readiness.md, conclusion.md, README.md, a declared deliverable by its reference ' +
    '(e.g. deliverables/design-spec.md, or external:adr.md in external mode), or any other file inside the folder.',
  write_document:
    'Replace (or, with append=true, add to the end of) a collaboration document: proposal.md, review.md, decisions.md, readiness.md, conclusion.md, README.md, or a declared deliverable by its reference. ' +
    'protocol.json and events.jsonl are never written this way (use append). Write only what your current next action asks for.',
  freeze:
    'Freeze a deliverable in one step (default: the primary): set its "Status: Frozen" line, compute its SHA-256, append deliverable_frozen with role, doc and sha256, ' +
    "and record the hash on readiness.md's '- SHA-256:' line. Only the proposal owner, in phase readiness_check, once; a refusal leaves every file as it was.",
  resources: 'A document of a collaboration under the server root: acp://collab/{folder}/{document}.',
} as const;

/** `folder` of the server's own tools, as the commands declare theirs. */
const FOLDER = { type: 'string', required: true, description: 'Collaboration folder, relative to the server root (or absolute inside it)' } as const;

/** The arguments of the tools that are not commands (status, read_document, write_document), as option data. */
export const OWN_TOOL_OPTIONS = {
  status: {
    folder: FOLDER,
    participant: { type: 'string', description: 'Your participant id, as listed in protocol.json: also get your next action' },
  },
  read_document: {
    folder: FOLDER,
    doc: { type: 'string', required: true, description: 'Document name or deliverable reference, relative to the folder' },
  },
  write_document: {
    folder: FOLDER,
    doc: { type: 'string', required: true, description: 'proposal.md, review.md, decisions.md, readiness.md, conclusion.md, README.md or a declared deliverable reference' },
    content: { type: 'string', required: true, description: 'The full new text (or the text to add, with append=true)' },
    append: { type: 'boolean', description: 'Add content to the end instead of replacing the file (e.g. a new review section)' },
  },
} as const satisfies Record<string, Record<string, CommandOptionSpec>>;
