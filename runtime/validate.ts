/**
 * Validation (spec §8): every check of the folder, its log, its documents
 * and its signatures, the deliverable types' checks and the validate hooks,
 * and strict mode's extra checks.
 * @module
 */
import * as nodePath from 'node:path';
import { FORBIDDEN_FILES, REQUIRED_FILES, VERSION } from './constants.ts';
import { checkDecisions, conclusionErrors, decisionGateErrors, markdown, readReadiness, readinessGateErrors, strictProposalErrors, strictReviewSections } from './documents.ts';
import { AcpError, AcpPluginError } from './errors.ts';
import { writerHost } from './guarded-host.ts';
import { readingHost } from './folder-read.ts';
import { scanEventLog } from './event-log.ts';
import { callType, defaultTemplate, deliverableRef, documentFiles, isUnsafePath, participantIds, primaryRef, readDeliverable, readProtocol } from './folder.ts';
import type { Host } from './host.ts';
import { lineHash } from './keyring.ts';
import { canonicalSeconds, decodeText, firstReviewHeading, pyRepr, pyStr, pyStrip, type ReviewHeading, reviewHeadings, zonedInstant } from './pytext.ts';
import type { SignatureVerifier, SigningDeclaration } from './signing.ts';
import { applyEvent, emptyState } from './state-machine.ts';
import { type DeliverableCheckContext, type DerivedState, EVENT_NAMES, type Findings, type FolderRead, type Json, PHASES, type PyInstant, type ReadinessFacts, type Registry, type SignatureReport, type SigningSummary, type ValidateOptions, type ValidationResult } from './types.ts';
import { isInside, isObject, isPyIntLike, nodeCrypto, pySeqKey, sameList } from './util.ts';
import { readCachedTurn } from './turn.ts';
import { type CheckpointCommit, type LogVouch, MIN_LOG_BYTES, ValidateCheckpoint } from './validate-checkpoint.ts';
import { mentionErrors, ReviewFile, ReviewLinks, type ReviewMentions, reviewMentions, type StrictFinding } from './review-links.ts';
import { attachmentPath, isStringList, readTextIfExists, supportingEntries } from './folder.ts';
import { sha256Hex } from './pytext.ts';
import { DELIVERABLE_EVENTS, seqText } from './state-machine.ts';

function checkDeliverablesDeclaration(protocol: Json, folder: string, errors: string[], host: Host, dirs: Set<string>, registry?: Registry): boolean {
  const start = errors.length;
  const deliverables = protocol.deliverables;
  if (!isObject(deliverables)) {
    errors.push('protocol.json deliverables.primary is required');
    return false;
  }
  const mode = deliverables.mode;
  if (mode !== 'internal' && mode !== 'external') errors.push('deliverables.mode must be internal or external');
  if (mode === 'internal' && protocol.repoRoot !== undefined) errors.push('repoRoot is not allowed for internal deliverables');
  if (mode === 'external') {
    const repoRoot = protocol.repoRoot;
    if (typeof repoRoot !== 'string' || pyStrip(repoRoot) === '') errors.push('repoRoot is required for external deliverables');
    else if (nodePath.isAbsolute(repoRoot)) errors.push('repoRoot must be relative');
    else {
      const resolved = nodePath.resolve(folder, repoRoot);
      if (!dirs.has(resolved)) errors.push('repoRoot must resolve to an existing directory');
      else if (resolved === nodePath.parse(resolved).root) errors.push('repoRoot must not resolve to filesystem root');
      else if (!isInside(folder, resolved)) errors.push('collaboration folder must be inside repoRoot');
    }
  }
  const dir = deliverables.dir;
  if (typeof dir !== 'string' || pyStrip(dir) === '') errors.push('deliverables.dir is required');
  else if (isUnsafePath(dir)) errors.push('deliverables.dir must be relative and must not contain ..');
  const primary = deliverables.primary;
  if (!isObject(primary)) {
    errors.push('protocol.json deliverables.primary is required');
    return errors.length === start;
  }
  // A loaded plugin type that opted out of being recorded as custom is known too.
  const knownType = (type: unknown): boolean => typeof type === 'string' && (validationTypes.has(type) || registry?.type(type)?.recordAsCustom === false);
  if (!knownType(primary.type)) errors.push('primary deliverable type is invalid');
  const file = primary.file;
  if (typeof file !== 'string' || !file.endsWith('.md')) errors.push('primary deliverable file must be Markdown');
  else if (isUnsafePath(file)) errors.push('primary deliverable file must be relative and must not contain ..');
  if (primary.type === 'custom' && !(Array.isArray(primary.checklist) && primary.checklist.some((c) => typeof c === 'string' && pyStrip(c)))) {
    errors.push('custom primary deliverable requires checklist');
  }
  const seen = new Set<string>();
  const supporting = deliverables.supporting;
  for (const entry of Array.isArray(supporting) ? supporting : []) {
    const item = isObject(entry) ? entry : {};
    if (!knownType(item.type)) errors.push('supporting deliverable type is invalid');
    const sfile = item.file;
    if (typeof sfile !== 'string' || !sfile.endsWith('.md')) errors.push('supporting deliverable file must be Markdown');
    else if (isUnsafePath(sfile)) errors.push('supporting deliverable file must be relative and must not contain ..');
    if (typeof sfile === 'string') {
      if (seen.has(sfile)) errors.push('supporting deliverable files must be unique');
      seen.add(sfile);
      if (sfile === file) errors.push('supporting deliverable must not reuse the primary deliverable file');
    }
  }
  const attachments = deliverables.attachments;
  for (const entry of Array.isArray(attachments) ? attachments : []) {
    if (!isObject(entry)) {
      errors.push('attachments must be objects');
      continue;
    }
    if (typeof entry.file !== 'string' || pyStrip(entry.file) === '') errors.push('attachment file is required');
    else if (isUnsafePath(entry.file)) errors.push('attachment file must be relative and must not contain ..');
  }
  return errors.length === start;
}

/** The built-in type names the protocol accepts in validation (spec §3). */
export const validationTypes = new Set(['adr', 'design-spec', 'implementation-plan', 'decision-memo', 'review-report', 'test-plan', 'custom']);

/** Step 7: review.md's headings against the review events, then what review.md must declare once there are reviews. */
function checkReviews(links: ReviewLinks, mentions: ReviewMentions, errors: string[]): void {
  errors.push(...links.errors());
  if (links.count) errors.push(...mentionErrors(mentions));
}

async function checkDeliverableContent(
  host: Host,
  folder: string,
  protocol: Json,
  registry: Registry,
  entry: Json,
  ref: string,
  frozenRequired: boolean,
  primary: boolean,
  findings: Findings,
): Promise<void> {
  const { errors } = findings;
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readDeliverable(host, folder, protocol, ref);
  } catch (error) {
    if (error instanceof AcpError) {
      errors.push(error.message);
      return;
    }
    throw error;
  }
  if (!bytes) {
    errors.push(primary ? `primary deliverable missing: ${ref}` : `supporting deliverable missing: ${ref}`);
    return;
  }
  let text: string;
  try {
    text = decodeText(bytes, ref);
  } catch (error) {
    errors.push((error as AcpError).message);
    return;
  }
  const status = markdown.status(text);
  if (!status) errors.push(primary ? 'primary deliverable must include Status: Draft, In Review, or Frozen' : `supporting deliverable ${ref} must include Status`);
  // Not `else`: the Python tools report a missing Status line and, where
  // frozen content is required, the missing Frozen too (issue 12 item 8).
  if (frozenRequired && status !== 'Frozen') errors.push(primary ? 'primary deliverable status must be Frozen' : `supporting deliverable ${ref} status must be Frozen`);
  const sections = requiredSections(registry, entry);
  for (const section of sections) {
    if (!markdown.hasSection(text, section)) {
      errors.push(primary ? `primary deliverable missing required section: ${section}` : `supporting deliverable ${ref} missing required section: ${section}`);
    } else if (frozenRequired && pyStrip(markdown.sectionBody(text, section) ?? '') === '') {
      errors.push(primary ? `primary deliverable section must not be empty when frozen: ${section}` : `supporting deliverable ${ref} section must not be empty when frozen: ${section}`);
    }
  }
  await checkPluginType(registry, entry, { text, ref, sections, frozenRequired, markdown }, findings);
}

/** The `## ` sections a declared deliverable must have: its type's, or its recorded checklist. */
function requiredSections(registry: Registry, entry: Json): string[] {
  const type = typeof entry.type === 'string' ? entry.type : '';
  const checklist = Array.isArray(entry.checklist) ? entry.checklist.filter((c): c is string => typeof c === 'string').map(pyStrip).filter(Boolean) : [];
  const definition = registry.type(type);
  return definition ? callType(registry, type, 'sections()', () => definition.sections(checklist), isStringList) : checklist;
}

/**
 * A deliverable type's own `check`. A folder recorded as `custom` with a
 * `pluginType` gets that type's check when its plugin is loaded, and a
 * warning when it is not (the recorded checklist was checked all the same).
 */
async function checkPluginType(registry: Registry, entry: Json, context: DeliverableCheckContext, findings: Findings): Promise<void> {
  const pluginType = entry.type === 'custom' && typeof entry.pluginType === 'string' ? entry.pluginType : undefined;
  const typeName = pluginType ?? (typeof entry.type === 'string' ? entry.type : '');
  const registered = registry.types.get(typeName);
  if (pluginType !== undefined && !registered) {
    findings.warnings.push(
      `deliverable type '${pluginType}' is not loaded; checked ${context.ref} against its recorded checklist only (load its plugin with --plugin or acp.config.yaml for its own checks)`,
    );
    return;
  }
  const check = registered?.definition.check;
  if (!check) return;
  const owner = registered.origin.plugin ?? registered.origin.source;
  let result: Findings;
  try {
    result = await check(context);
  } catch (error) {
    throw new AcpPluginError(owner, `the check of deliverable type '${typeName}'`, error);
  }
  const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
  if (!strings(result?.errors) || !strings(result?.warnings)) {
    throw new AcpPluginError(owner, `the check of deliverable type '${typeName}'`, 'it must return { errors: string[], warnings: string[] }');
  }
  findings.errors.push(...result.errors);
  findings.warnings.push(...result.warnings);
}

const EVENT_FIELDS = ['seq', 'from', 'event', 'at', 'summary'];

const EVENT_NAME_SET = new Set<unknown>(EVENT_NAMES);

/**
 * The per-event work of validate (steps 6–9 and the facts later steps
 * need), done as the log is read: a long log is never held in memory. The
 * messages of each step are kept apart, so they come out in the spec's order.
 */
class LogPass {
  /** Step 6 messages, in event order. */
  readonly shapeErrors: string[] = [];
  /** Step 7: review.md's headings against the review events (review-links.ts). */
  links: ReviewLinks;
  /** Step 8: deliverable events with doc errors, or freezes to check against the files, in order. */
  readonly deliverableItems: { event: Json; docErrors: string[]; freeze: boolean }[] = [];
  primaryFreezes = 0;
  readonly frozenSupporting = new Set<string>();
  /** Step 9: the replayed state. */
  readonly state = emptyState();
  /** Later steps: which events occur; whether a primary freeze exists (whatever its doc). */
  readonly eventNames = new Set<unknown>();
  anyPrimaryFreeze = false;
  /** Every event, only when a `validate` hook wants them. */
  readonly events: Json[] | undefined;
  count = 0;
  // The last valid `at` (exact to the microsecond, as Python compares
  // them) as two numbers, NaN before the first: no instant per event.
  #lastSeconds = Number.NaN;
  #lastMicros = 0;
  /** A signed folder's signature verifier (docs/signing.md); undefined when none is declared or signatures are not checked. */
  readonly signing: SignatureVerifier | undefined;
  /** Signatures checked but none declared: the first event that carries one anyway. */
  firstSignature: number | undefined;
  readonly #watchSignatures: boolean;
  // The seqs seen so far: while each seq equals its position (the normal
  // case) they are 1..count and need no set.
  seenSeqs: Set<unknown> | undefined;
  /** Whether every seq so far is its event's number itself (what the append checkpoint needs of a log). */
  seqsExact = true;
  /** The seqs of the decision_accepted events (an append re-checks each against the current readiness.md). */
  readonly gateSeqs: number[] = [];
  readonly #protocol: Json;
  readonly #participants: string[];
  readonly #readiness: ReadinessFacts;

  constructor(protocol: Json, participants: string[], readiness: ReadinessFacts, links: ReviewLinks, keepEvents: boolean, signatures: PassSignatures) {
    this.signing = signatures.verifier?.();
    this.#watchSignatures = signatures.check;
    this.#protocol = protocol;
    this.#participants = participants;
    this.#readiness = readiness;
    this.links = links;
    this.events = keepEvents ? [] : undefined;
  }

  /** The last valid `at` (the checkpoint keeps it). */
  get lastAt(): PyInstant | undefined {
    return Number.isNaN(this.#lastSeconds) ? undefined : [this.#lastSeconds, this.#lastMicros];
  }

  set lastAt(at: PyInstant | undefined) {
    this.#lastSeconds = at ? at[0] : Number.NaN;
    this.#lastMicros = at ? at[1] : 0;
  }

  add(event: Json, line: string): void {
    const index = this.count++;
    this.events?.push(event);
    if (this.signing) this.signing.add(event, line);
    else if (this.#watchSignatures && this.firstSignature === undefined && event.sig !== undefined) this.firstSignature = index + 1;
    this.#checkShape(event, index);
    this.links.add(event, pySeqKey(event.seq));
    this.#noteDeliverable(event);
    applyEvent(this.state, event, this.#participants, this.#readiness);
    this.eventNames.add(event.event);
    if (event.event === 'deliverable_frozen' && event.role === 'primary') this.anyPrimaryFreeze = true;
    if (event.seq !== index + 1) this.seqsExact = false;
    else if (event.event === 'decision_accepted') this.gateSeqs.push(index + 1);
  }

  /** Step 6: event shape. */
  #checkShape(event: Json, index: number): void {
    const errors = this.shapeErrors;
    const expected = index + 1;
    // Python's `!=`: seq 1.0 and true equal 1.
    if (pySeqKey(event.seq) !== expected) errors.push(`events.jsonl: expected seq ${expected}, found ${seqText(event)}`);
    if (!('seq' in event && 'from' in event && 'event' in event && 'at' in event && 'summary' in event)) {
      for (const field of EVENT_FIELDS) if (!(field in event)) errors.push(`seq ${seqText(event)}: missing required field ${field}`);
    }
    if (!EVENT_NAME_SET.has(event.event)) errors.push(`seq ${seqText(event)}: unknown event ${pyRepr(event.event)}`);
    if (DELIVERABLE_EVENTS.has(event.event as string)) {
      if (event.role !== 'primary' && event.role !== 'supporting') errors.push(`seq ${seqText(event)}: deliverable events require role`);
      if (typeof event.doc !== 'string') errors.push(`seq ${seqText(event)}: deliverable events require doc`);
      if (event.event === 'deliverable_frozen' && !(typeof event.sha256 === 'string' && SHA256_HEX.test(event.sha256))) {
        errors.push(`seq ${seqText(event)}: deliverable_frozen requires sha256`);
      }
    }
    if (event.event !== 'initialized') {
      const replyTo = event.reply_to;
      if (replyTo === undefined || replyTo === null) errors.push(`seq ${seqText(event)}: reply_to is required after initialized`);
      else if (!isPyIntLike(replyTo) || !(this.seenSeqs ? this.seenSeqs.has(pySeqKey(replyTo)) : Number(replyTo) >= 1 && Number(replyTo) <= index)) {
        errors.push(`seq ${seqText(event)}: reply_to must point to an earlier event`);
      }
    }
    this.#checkTime(event);
    // The earlier seqs a reply_to may name: the int ones (`1.0` is no int to Python).
    const seq = isPyIntLike(event.seq) ? pySeqKey(event.seq) : undefined;
    if (this.seenSeqs) this.seenSeqs.add(seq);
    else if (seq !== expected) {
      this.seenSeqs = new Set<unknown>([seq]);
      for (let seq = 1; seq <= index; seq++) this.seenSeqs.add(seq);
    }
  }

  /** Step 6's `at`: a timestamp, not earlier than the previous one; the form every tool writes is compared as its UTC second. */
  #checkTime(event: Json): void {
    const text = event.at;
    let seconds = typeof text === 'string' ? canonicalSeconds(text) : null;
    let micros = 0;
    if (seconds === null) {
      const at = zonedInstant(text);
      seconds = at?.[0];
      micros = at?.[1] ?? 0;
    }
    if (seconds === undefined) {
      this.shapeErrors.push(`seq ${seqText(event)}: at must be an ISO-8601 timestamp`);
      return;
    }
    if (seconds < this.#lastSeconds || (seconds === this.#lastSeconds && micros < this.#lastMicros)) this.shapeErrors.push(`seq ${seqText(event)}: at must not be earlier than the previous event`);
    this.#lastSeconds = seconds;
    this.#lastMicros = micros;
  }

  /** Step 8, the part that needs no file. */
  #noteDeliverable(event: Json): void {
    if (!DELIVERABLE_EVENTS.has(event.event as string)) return;
    if ((event.role !== 'primary' && event.role !== 'supporting') || typeof event.doc !== 'string') return;
    const docError = deliverableDocError(this.#protocol, event);
    const isFreeze = event.event === 'deliverable_frozen';
    if (isFreeze) {
      if (event.role === 'primary') this.primaryFreezes++;
      else this.frozenSupporting.add(event.doc);
    }
    if (docError !== undefined || isFreeze) this.deliverableItems.push({ event, docErrors: docError === undefined ? [] : [docError], freeze: isFreeze && docError === undefined });
  }
}

/** How validate's pass checks signatures: whether at all, and the verifier of a signed folder. */
interface PassSignatures {
  check: boolean;
  verifier?: () => SignatureVerifier;
  /** What the validation checkpoint keys on (see PassInputs.signing). */
  key: string;
  /** A malformed `signing` declaration in protocol.json. */
  problem?: string;
}

/** The signature checks of validate's pass: signing.ts is loaded only for a folder that declares signing. */
async function passSignatures(protocol: Json, options: ValidateOptions, evenUndeclared = false): Promise<PassSignatures> {
  if (options.signatures === false) return { check: false, key: 'off' };
  if (protocol.signing === undefined && !evenUndeclared) return { check: true, key: 'none' };
  const signing = await import('./signing.ts');
  const hash = signing.fastLineHasher(await nodeCrypto());
  let declared: SigningDeclaration | undefined;
  try {
    declared = signing.signingDeclaration(protocol);
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    return { check: true, key: 'malformed', problem: error.message, verifier: () => new signing.SignatureVerifier(undefined, hash) };
  }
  // seq 1 signs the terms: a checkpoint made under other terms is not used.
  const terms = signing.termsDigests(protocol);
  return { check: true, key: declared ? `${declared.id} ${declared.policy} ${lineHash(Object.values(terms).join(' '))}` : 'none', verifier: () => new signing.SignatureVerifier(declared, hash, { terms }) };
}

/** The signature checks' verdict, after every spec step (so that the spec's messages keep their order). */
function signatureFindings(pass: Pick<LogPass, 'signing' | 'firstSignature'>, signatures: PassSignatures, findings: Findings & { rebuilt?: SigningDeclaration }): SigningSummary | undefined {
  if (signatures.problem) findings.errors.push(signatures.problem);
  if (pass.firstSignature !== undefined) {
    findings.errors.push(`seq ${pass.firstSignature}: carries a signature, but protocol.json declares no signed collaboration (its signing declaration was removed?)`);
  }
  if (!pass.signing) return undefined;
  const verdict = pass.signing.finish();
  findings.errors.push(...verdict.errors);
  findings.warnings.push(...verdict.warnings);
  if (verdict.rebuilt) findings.rebuilt = verdict.rebuilt;
  return verdict.summary;
}

/**
 * Verify a folder's chain and signatures alone, without the rest of
 * validate (doctor; a quick check after a sync): the same messages as
 * validate's signature checks, and the log's unreadable lines. A folder
 * that declares no signing and whose events carry none reports nothing.
 */
export async function verifySignatures(host: Host, folder: string): Promise<SignatureReport> {
  const protocol = await readProtocol(host, folder);
  // Also without a declaration in protocol.json: seq 1 may declare one (removed from the copy).
  const signatures = await passSignatures(protocol, {}, true);
  // Always one here: a folder without signing, and whose lines carry none, reports nothing.
  const verifier = signatures.verifier!();
  const errors: string[] = [];
  try {
    const log = await scanEventLog(host, folder, (event, line) => verifier.add(event, line), undefined, () => verifier.flush());
    errors.push(...log.errors);
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    errors.push(error.message);
  }
  const findings: Findings & { rebuilt?: SigningDeclaration } = { errors, warnings: [] };
  const signing = signatureFindings({ signing: verifier, firstSignature: undefined }, signatures, findings);
  return { ...findings, ...(signing ? { signing } : {}) };
}

/**
 * Validate a collaboration folder (spec §8). Never throws for folder content
 * problems: they are reported as errors, in the order of the spec's steps;
 * a signed folder's chain and signatures after them (docs/signing.md).
 */
export async function validate(guarded: Host, folder: string, registry: Registry, options: ValidateOptions = {}): Promise<ValidationResult> {
  return (await validateFolder(guarded, folder, registry, options)).result;
}

/**
 * {@link validate}, and what it read of the folder ({@link FolderRead}): the
 * whole files, and a short log's events, for a view of the same folder
 * (the humans' `status`) that then reads each file once.
 */
export async function validateRead(guarded: Host, folder: string, registry: Registry, options: ValidateOptions = {}): Promise<{ result: ValidationResult; read: FolderRead }> {
  const read: FolderRead = { files: new Map() };
  return { result: (await validateFolder(guarded, folder, registry, options, undefined, read)).result, read };
}

/**
 * Strict mode's judgement of an append: `validate --strict` of the folder
 * as it will be after it (`pending`: the append's view of the folder, its
 * new line and protocol.json laid over it, runtime/strict.ts), resuming
 * from the validation checkpoint when `vouch` (what the append verified of
 * the log, under the folder lock) vouches for its prefix. `commit`, when
 * there is one, saves the checkpoint once the line is written (with the
 * log's fingerprint then), so the next strict append resumes after it.
 */
export async function validateOutcome(pending: Host, folder: string, registry: Registry, vouch: LogVouch): Promise<{ result: ValidationResult; commit?: CheckpointCommit }> {
  const { result, checkpoint } = await validateFolder(pending, folder, registry, { strict: true }, vouch);
  return { result, commit: result.ok ? checkpoint?.commit : undefined };
}

/** {@link validate}, and the checkpoint it used; `vouch` marks a strict append's view of the folder (see {@link validateOutcome}); `read` gathers what it read (see {@link validateRead}). */
async function validateFolder(guarded: Host, folder: string, registry: Registry, options: ValidateOptions, vouch?: LogVouch, read?: FolderRead): Promise<{ result: ValidationResult; checkpoint?: ValidateCheckpoint }> {
  // Validate writes only its checkpoint, in this machine's cache (never in the folder).
  const host = read ? readingHost(writerHost(guarded), read.files) : writerHost(guarded);
  const errors: string[] = [];
  const warnings: string[] = [];
  const fileErrors = await folderFileErrors(host, folder);
  let protocol: Json;
  try {
    protocol = await readProtocol(host, folder);
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    return { result: { ok: false, errors: [error.message, ...fileErrors], warnings } };
  }
  errors.push(...fileErrors);
  const participants = checkDeclaration(protocol, errors);
  // Step 4: the deliverables declaration.
  const dirs = new Set<string>();
  if (typeof protocol.repoRoot === 'string' && !nodePath.isAbsolute(protocol.repoRoot)) {
    const resolved = nodePath.resolve(folder, protocol.repoRoot);
    if ((await host.fs.stat(resolved))?.isDirectory) dirs.add(resolved);
  }
  const declarationOk = checkDeliverablesDeclaration(protocol, folder, errors, host, dirs, registry);
  const ref = declarationOk || isObject((protocol.deliverables as Json | undefined)?.primary) ? primaryRef(protocol) : undefined;
  // Steps 5–9: the log is read once, in pieces, and each event is checked
  // as it comes (see LogPass); readiness.md (and review.md, unless the
  // checkpoint's ledger stands for it) are read first.
  const review = new ReviewFile(host, nodePath.join(folder, 'review.md'));
  const readiness = readReadiness((await readTextIfExists(host, nodePath.join(folder, 'readiness.md'), 'readiness.md', true)) ?? '');
  const hooked = registry.hooks.has('validate'); // a hook is handed every event: then the whole log is parsed
  const signatures = await passSignatures(protocol, options);
  const inputs = { acp: VERSION, participants, primary: primaryRef(protocol) ?? null, supporting: supportingRefs(protocol), gates: decisionGateErrors(readiness), signing: signatures.key };
  const checkpoint = hooked ? undefined : await ValidateCheckpoint.open(host, folder, inputs, vouch);
  const fresh = async (): Promise<ReviewLinks> => ReviewLinks.fromHeadings(reviewHeadings((await review.text()) ?? ''));
  const newPass = (links: ReviewLinks): LogPass => new LogPass(protocol, participants, readiness, links, hooked, signatures);
  const pass = await scanLog(host, folder, newPass, { first: (await checkpoint?.reviewLinks(review)) ?? (await fresh()), fresh }, errors, checkpoint, read);
  errors.push(...pass.shapeErrors);
  const mentions = await reviewMentionsOf(pass.links, review, ref);
  checkReviews(pass.links, mentions, errors);
  await checkDeliverableEvents(host, folder, protocol, pass, errors);
  checkCachedState(protocol, pass.state, errors);
  if (declarationOk) await checkContent(host, folder, protocol, registry, pass, ref!, { errors, warnings });
  await checkClosing(host, folder, protocol, pass, readiness, ref, { errors, warnings });
  const signing = signatureFindings(pass, signatures, { errors, warnings });
  // Strict mode's review findings: found while review.md's text is at hand, else carried by the ledger, for the next strict append.
  const findings = options.strict || (checkpoint && review.read) ? await strictFindings(pass.links, review) : pass.links.ledger?.strict;
  if (options.strict) await checkStrict(host, folder, protocol, registry, { pass, findings: mentions.present ? findings! : [], readiness, ref: declarationOk ? ref : undefined }, errors);
  if (hooked) await registry.hooks.call('validate', { folder, files: documentFiles(host, folder, protocol), protocol, events: pass.events ?? [], errors, warnings });
  await checkpoint?.save(pass, () => pass.links.toLedger(pass.count, mentions, findings?.every((f) => typeof f.seq === 'number') ? (findings as StrictFinding[]) : undefined));
  // A long log validated without its checkpoint because none can be written: said once, the verdict unchanged.
  const stateless = !hooked && vouch === undefined && !checkpoint ? host.stateUnavailable?.() : undefined;
  const notes = stateless ? { notes: [`no validation checkpoint, so every validate checks the whole log: ${stateless}`] } : {};
  return { result: { ok: errors.length === 0, errors, warnings, ...(signing ? { signing } : {}), ...notes }, checkpoint };
}

/** Steps 1–2: the required files (not directories) and the forbidden ones. */
async function folderFileErrors(host: Host, folder: string): Promise<string[]> {
  let names: Set<string>;
  try {
    names = new Set(await host.fs.readDir(folder));
  } catch {
    names = new Set();
  }
  const errors: string[] = [];
  for (const name of REQUIRED_FILES) {
    if (!names.has(name)) errors.push(`missing ${name}`);
    else if (name.endsWith('.md') && (await host.fs.stat(nodePath.join(folder, name)))?.isDirectory) errors.push(`${name} is a directory, not a file`);
  }
  for (const name of FORBIDDEN_FILES) {
    if (names.has(name)) errors.push(`${name} is not part of the protocol; remove it and use events.jsonl/readiness.md instead`);
  }
  return errors;
}

/** Step 3: protocol.json's declaration; returns the participant ids. */
function checkDeclaration(protocol: Json, errors: string[]): string[] {
  if (protocol.protocol !== 'acp') errors.push("protocol.json protocol must be 'acp'");
  if (protocol.schemaVersion !== 2) errors.push('protocol.json schemaVersion must be 2');
  const cache = readCachedTurn(protocol);
  if (typeof cache.phase !== 'string' || !(PHASES as readonly string[]).includes(cache.phase)) {
    errors.push(`currentPhase must be one of ${pyRepr([...PHASES])}`);
  }
  if (typeof protocol.objective !== 'string' || pyStrip(protocol.objective) === '') errors.push('protocol.json objective must not be blank');
  let participants: string[] = [];
  try {
    participants = participantIds(protocol);
    if (!participants.length) errors.push('protocol.json participants must not be empty');
  } catch (error) {
    errors.push((error as AcpError).message);
  }
  const gates = protocol.completionGates;
  if (!Array.isArray(gates) || gates.length === 0) errors.push('protocol.json completionGates must not be empty');
  else {
    gates.forEach((gate, index) => {
      if (!isObject(gate) || (gate.source !== 'objective' && gate.source !== 'generated') || typeof gate.text !== 'string' || pyStrip(gate.text) === '') {
        errors.push(`completionGates[${index + 1}] must include source and text`);
        return;
      }
      for (const name of FORBIDDEN_FILES) if ((gate.text as string).includes(name)) errors.push(`completion gate must not reference obsolete file ${name}`);
    });
  }
  if (!cache.present.waitingFor) errors.push('protocol.json waitingFor must be present');
  if (!cache.present.proposalOwner) errors.push('protocol.json proposalOwner must be present');
  return participants;
}

/**
 * Step 5: read the log through a fresh pass; an unreadable log counts as
 * empty. `links.first`: step 7's links to start with (the checkpoint's
 * ledger's, which stand only if the checkpoint restores its prefix);
 * `links.fresh()`: links from review.md's headings.
 */
async function scanLog(host: Host, folder: string, newPass: (links: ReviewLinks) => LogPass, links: { first: ReviewLinks; fresh: () => Promise<ReviewLinks> }, errors: string[], checkpoint?: ValidateCheckpoint, read?: FolderRead): Promise<LogPass> {
  let pass = newPass(links.first);
  // Without a checkpoint every line is read from the first: a short log's events are kept for the caller's view (FolderRead.log);
  // not when a validate hook is handed them (pass.events), which could change what the view shows.
  let kept: Json[] | undefined = read && !checkpoint && !pass.events ? [] : undefined;
  let keptChars = 0;
  const keep = (event: Json, line: string): void => {
    if ((keptChars += line.length + 1) < MIN_LOG_BYTES) kept?.push(event);
    else kept = undefined;
  };
  try {
    const log = await scanEventLog(host, folder, kept ? (event, line) => (pass.add(event, line), keep(event, line)) : (event, line) => pass.add(event, line), checkpoint && ((file) => checkpoint.resume(file, pass, links.fresh)), pass.signing && (() => pass.signing!.flush()));
    if (!log.tornTail) checkpoint?.scanned(log.lines, log.errors);
    if (read && kept) read.log = { events: kept, errors: [...log.errors], size: log.size, lines: log.lines, tornTail: log.tornTail };
    errors.push(...log.errors);
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    errors.push(error.message);
    pass = newPass(await links.fresh());
  }
  return pass;
}

/** What review.md mentions for step 7: the ledger's, when it was asked about the same reference, else read in its text. */
async function reviewMentionsOf(links: ReviewLinks, review: ReviewFile, ref: string | undefined): Promise<ReviewMentions> {
  const kept = links.ledger?.mentions;
  return kept && kept.ref === (ref ?? null) ? kept : reviewMentions(await review.text(), ref);
}

/** Strict mode's findings in review.md's review sections that have any: the ledger's, else found in its text. */
async function strictFindings(links: ReviewLinks, review: ReviewFile): Promise<{ seq: number | bigint; errors: string[] }[]> {
  const heading = (line: string): ReviewHeading[] => {
    const found = firstReviewHeading(line);
    return found ? [found] : [];
  };
  return links.ledger?.strict ?? strictReviewSections((await review.text()) ?? '', heading);
}

/** Step 8: deliverable events (references, roles, hashes) and the frozen marks. */
async function checkDeliverableEvents(host: Host, folder: string, protocol: Json, pass: LogPass, errors: string[]): Promise<void> {
  for (const { event, docErrors, freeze } of pass.deliverableItems) {
    for (const message of docErrors) errors.push(`seq ${seqText(event)}: ${message}`);
    if (!freeze) continue;
    try {
      for (const message of await freezeErrors(host, folder, protocol, event.doc as string, event.sha256)) errors.push(`seq ${seqText(event)}: ${message}`);
    } catch (error) {
      if (!(error instanceof AcpError)) throw error;
      errors.push(`seq ${seqText(event)}: ${error.message}`);
    }
  }
  if (pass.primaryFreezes > 1) errors.push('primary deliverable can be frozen only once');
  for (const entry of supportingEntries(protocol)) {
    if (typeof entry.file !== 'string') continue;
    const sref = deliverableRef(protocol, entry.file);
    if (entry.frozen && !pass.frozenSupporting.has(sref)) errors.push(`supporting deliverable requires deliverable_frozen: ${sref}`);
    if (!entry.frozen && pass.frozenSupporting.has(sref)) errors.push(`supporting deliverable has freeze event but is not marked frozen: ${sref}`);
  }
}

/** Step 9: the replay's errors, and protocol.json's cached state against it. */
function checkCachedState(protocol: Json, state: DerivedState, errors: string[]): void {
  errors.push(...state.errors);
  // With no event replayed (an empty or unreadable log) the Python tools
  // compare only waitingFor (issue 12 item 6).
  const replayed = state.phase !== null;
  const cache = readCachedTurn(protocol);
  if (replayed && cache.phase !== state.phase) errors.push(`protocol.json currentPhase is ${pyStr(cache.phase)}, expected ${state.phase}`);
  if (replayed && cache.proposalOwner !== state.proposalOwner) {
    errors.push(`protocol.json proposalOwner is '${pyStr(cache.proposalOwner)}', expected '${pyStr(state.proposalOwner)}'`);
  }
  if (!sameList(cache.waitingFor, state.waitingFor)) errors.push(`protocol.json waitingFor is ${pyRepr(cache.waitingFor)}, expected ${pyRepr(state.waitingFor)}`);
}

/** Step 10: the deliverables' content, decisions.md and the attachments. */
async function checkContent(host: Host, folder: string, protocol: Json, registry: Registry, pass: LogPass, ref: string, findings: Findings): Promise<void> {
  const deliverables = protocol.deliverables as Json;
  const has = (name: string): boolean => pass.eventNames.has(name);
  const frozenRequired = pass.primaryFreezes > 0 || has('readiness_passed') || has('completed');
  await checkDeliverableContent(host, folder, protocol, registry, deliverables.primary as Json, ref, frozenRequired, true, findings);
  for (const entry of supportingEntries(protocol)) {
    const sref = deliverableRef(protocol, entry.file as string);
    // Frozen by the protocol.json flag or by an event: either way its content must be final.
    await checkDeliverableContent(host, folder, protocol, registry, entry, sref, Boolean(entry.frozen) || pass.frozenSupporting.has(sref), false, findings);
  }
  const refs = [ref, ...supportingEntries(protocol).map((s) => deliverableRef(protocol, s.file as string))];
  checkDecisions(await readTextIfExists(host, nodePath.join(folder, 'decisions.md'), 'decisions.md', true), refs, findings.errors);
  const attachments = Array.isArray(deliverables.attachments) ? deliverables.attachments.filter(isObject) : [];
  for (const attachment of attachments) {
    const file = attachment.file as string;
    if (!(await host.fs.stat(attachmentPath(folder, protocol, file)))) findings.errors.push(`attachment missing: ${file}`);
  }
}

/** Steps 11–13: readiness and completion. */
async function checkClosing(host: Host, folder: string, protocol: Json, pass: LogPass, readiness: ReadinessFacts, ref: string | undefined, findings: Findings): Promise<void> {
  const { errors, warnings } = findings;
  const has = (name: string): boolean => pass.eventNames.has(name);
  if (has('decision_accepted')) errors.push(...decisionGateErrors(readiness));
  if (has('readiness_passed') || has('completed')) {
    errors.push(...readinessGateErrors(readiness, 'before readiness_passed or completed', true));
    if (pass.primaryFreezes === 0 && !pass.anyPrimaryFreeze) errors.push('readiness_passed requires primary deliverable_frozen');
  }
  if (has('completed')) {
    const unchecked = completionGateTexts(protocol).filter((gate) => !readiness.isGateChecked(gate));
    if (unchecked.length) errors.push(`completion gates must be checked before completed: ${unchecked.join(', ')}`);
    errors.push(...conclusionErrors((await readTextIfExists(host, nodePath.join(folder, 'conclusion.md'), 'conclusion.md', true)) ?? '', ref));
  } else if (readiness.deferredWithoutReason.length) {
    warnings.push('deferred_nonblocking readiness items should include a reason');
  }
}

/** What {@link checkStrict} reads besides the folder: validate's log pass and the documents it read. */
interface StrictInputs {
  pass: LogPass;
  /** review.md's review sections with strict findings (none when there is no review.md). */
  findings: { seq: number | bigint; errors: string[]; review?: boolean }[];
  readiness: ReadinessFacts;
  /** The primary deliverable's reference when its declaration is sound. */
  ref: string | undefined;
}

/**
 * [beyond] What strict mode asks of a folder beyond the Python tools'
 * validation: nothing the log says was done still reads as init left it.
 * The primary deliverable, once drafted, has every required section filled
 * in and none left as its template wrote it; proposal.md, once submitted,
 * lost init's placeholder and has no empty section; each review carries
 * its own declarations; once questions are classified, none is unresolved.
 */
async function checkStrict(host: Host, folder: string, protocol: Json, registry: Registry, inputs: StrictInputs, errors: string[]): Promise<void> {
  const { pass, ref } = inputs;
  const has = (name: string): boolean => pass.eventNames.has(name);
  if (ref !== undefined && pass.state.primaryDrafted) errors.push(...(await draftedDeliverableErrors(host, folder, protocol, registry, ref, pass.primaryFreezes > 0 || has('readiness_passed') || has('completed'))));
  if (has('proposal_submitted')) {
    const proposal = await readTextIfExists(host, nodePath.join(folder, 'proposal.md'), 'proposal.md', true);
    if (proposal !== undefined) errors.push(...strictProposalErrors(proposal));
  }
  // The sections of review_submitted events (documents.ts strictReviewSections).
  if (pass.links.count) for (const finding of inputs.findings) if (pass.links.isReview(finding.seq, finding)) errors.push(...finding.errors);
  if (has('question_classified') && inputs.readiness.unresolved.length) errors.push('unresolved readiness questions must be classified once question_classified');
}

/** A drafted primary deliverable: each required section filled in (validate asks it of a frozen one) and none as its template wrote it. */
async function draftedDeliverableErrors(host: Host, folder: string, protocol: Json, registry: Registry, ref: string, frozenRequired: boolean): Promise<string[]> {
  let text: string;
  try {
    const bytes = await readDeliverable(host, folder, protocol, ref);
    if (!bytes) return []; // validate says it is missing
    text = decodeText(bytes, ref);
  } catch (error) {
    if (error instanceof AcpError) return []; // validate says why it cannot be read
    throw error;
  }
  const entry = (protocol.deliverables as Json).primary as Json;
  const sections = requiredSections(registry, entry);
  const template = typeTemplate(registry, entry, sections);
  const errors: string[] = [];
  for (const section of sections) {
    const body = markdown.sectionBody(text, section);
    if (body === undefined) continue; // validate names the missing section
    if (pyStrip(body) === '') {
      if (!frozenRequired) errors.push(`primary deliverable section must not be empty once drafted: ${section}`);
    } else if (template !== undefined && pyStrip(body) === pyStrip(markdown.sectionBody(template, section) ?? '')) {
      errors.push(`primary deliverable section still holds its template text: ${section}`);
    }
  }
  return errors;
}

/** The template `init` wrote for a deliverable of this declaration (its plugin type's when loaded), or undefined. */
function typeTemplate(registry: Registry, entry: Json, sections: string[]): string | undefined {
  const name = entry.type === 'custom' && typeof entry.pluginType === 'string' ? entry.pluginType : typeof entry.type === 'string' ? entry.type : '';
  const definition = registry.type(name);
  if (!definition) return undefined;
  const render = definition.template?.bind(definition) ?? defaultTemplate;
  return callType(registry, name, 'template()', () => render({ title: definition.title, type: name, sections: [...sections] }), (t) => typeof t === 'string');
}

/** A SHA-256 digest as the log writes it: 64 lowercase hex digits. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Declared supporting references per protocol document (validate checks every deliverable event). */
const supportingRefsCache = new WeakMap<Json, string[]>();

/** What is wrong with an event's `doc` and `role` against protocol.json's deliverables (append and validate share it). */
export function deliverableDocErrors(protocol: Json, event: { doc?: unknown; role?: unknown }): string[] {
  const error = deliverableDocError(protocol, event);
  return error === undefined ? [] : [error];
}

/** {@link deliverableDocErrors}' one message, or undefined: validate asks for each deliverable event, most of a long log, and needs no array for none. */
function deliverableDocError(protocol: Json, event: { doc?: unknown; role?: unknown }): string | undefined {
  const role = event.role;
  const doc = event.doc;
  if (role === undefined || role === null || role === '') return 'deliverable events require role';
  if (doc === undefined || doc === null || doc === '') return 'deliverable events require doc';
  if (role === 'primary' && doc !== primaryRef(protocol)) return 'doc must reference the primary deliverable';
  if (role === 'supporting' && !supportingRefs(protocol).includes(doc as string)) return 'doc must reference a declared supporting deliverable';
  return undefined;
}

/** The declared supporting deliverables' references (once per protocol object: validate asks for each event). */
export function supportingRefs(protocol: Json): string[] {
  let refs = supportingRefsCache.get(protocol);
  if (!refs) supportingRefsCache.set(protocol, (refs = supportingEntries(protocol).filter((s) => typeof s.file === 'string').map((s) => deliverableRef(protocol, s.file as string))));
  return refs;
}

/** What is wrong with a deliverable_frozen event's document and sha256 (append and validate share it). */
export async function freezeErrors(host: Host, folder: string, protocol: Json, doc: string, sha: unknown): Promise<string[]> {
  if (typeof sha !== 'string' || !SHA256_HEX.test(sha)) return ['deliverable_frozen requires sha256'];
  const bytes = await readDeliverable(host, folder, protocol, doc);
  if (!bytes) return ['deliverable_frozen doc does not exist'];
  if ((await sha256Hex(bytes)) !== sha) return ['deliverable_frozen sha256 does not match current file'];
  return [];
}

/** protocol.json's completion gates, as their texts. */
export function completionGateTexts(protocol: Json): string[] {
  const gates = protocol.completionGates;
  if (!Array.isArray(gates)) return [];
  return gates.filter(isObject).map((g) => g.text).filter((t): t is string => typeof t === 'string');
}
