/**
 * The descriptions an MCP client shows the model: what each tool is for,
 * when to call it, and what its arguments mean. Kept apart from the glue so
 * they read as one piece of documentation.
 * @module
 */

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
  readDocument:
    'Read a file of a collaboration: protocol.json, events.jsonl, proposal.md, review.md, decisions.md, readiness.md, conclusion.md, README.md, a declared deliverable by its reference ' +
    '(e.g. deliverables/design-spec.md, or external:adr.md in external mode), or any other file inside the folder.',
  writeDocument:
    'Replace (or, with append=true, add to the end of) a collaboration document: proposal.md, review.md, decisions.md, readiness.md, conclusion.md, README.md, or a declared deliverable by its reference. ' +
    'protocol.json and events.jsonl are never written this way (use append). Write only what your current next action asks for.',
  freeze:
    'Freeze a deliverable in one step (default: the primary): set its "Status: Frozen" line, compute its SHA-256, append deliverable_frozen with role, doc and sha256, ' +
    "and record the hash on readiness.md's '- SHA-256:' line. Only the proposal owner, in phase readiness_check, once; a refusal leaves every file as it was.",
  resources: 'A document of a collaboration under the server root: acp://collab/{folder}/{document}.',
  args: {
    folder: 'Collaboration folder, relative to the server root (or absolute inside it).',
    participant: 'Your participant id, as listed in protocol.json.',
    participants: 'Participant ids; the first one owns the proposal. At least two.',
    objective: 'What the collaboration must achieve (one sentence).',
    completion: 'Objective completion gates: conditions checked in readiness.md before completing. At least one.',
    primaryType: 'Primary deliverable type: adr, design-spec, implementation-plan, decision-memo, review-report, test-plan or custom.',
    primaryFile: 'Primary deliverable file name (.md); required for custom, else the type\'s default (e.g. design-spec.md).',
    primaryChecks: 'Required sections of a custom deliverable.',
    mode: 'internal (deliverables inside the folder, default) or external (in a repository around it).',
    dir: 'Deliverables directory (default deliverables).',
    repoRoot: 'External mode: the repository root, relative to the folder.',
    resume: 'Accept an existing folder instead of refusing.',
    sign: 'Start a signed collaboration: every event carries its participant’s Ed25519 signature and the hash of the line before it (docs/signing.md).',
    signingPolicy: 'What validate makes of an event without a signature (a tool that does not sign): warn (default) or refuse.',
    event:
      'Event name: deliverable_drafted, deliverable_revised, deliverable_frozen, proposal_submitted, review_submitted, proposal_revised, question_classified, ' +
      'decision_proposed, decision_accepted, readiness_passed, completed, blocked.',
    summary: 'One line saying what you did.',
    doc: 'The document the event is about: the primary deliverable reference for deliverable_* events, conclusion.md for completed.',
    replyTo: 'Seq of the event this one answers (usually the latest event; required after initialized).',
    role: 'primary or supporting (deliverable_* events only).',
    sha256: 'SHA-256 of the deliverable (deliverable_frozen; the freeze tool computes it for you).',
    timeout: 'Give up after this many seconds (default 300; 0 waits until cancelled).',
    readDoc: 'Document name or deliverable reference, relative to the folder.',
    writeDoc: 'proposal.md, review.md, decisions.md, readiness.md, conclusion.md, README.md or a declared deliverable reference.',
    content: 'The full new text (or the text to add, with append=true).',
    append: 'Add content to the end instead of replacing the file (e.g. a new review section).',
    freezeDoc: 'Deliverable reference to freeze; default the primary deliverable.',
  },
} as const;
