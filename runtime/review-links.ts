/**
 * Step 7 of validate (spec §8): review.md's review headings against the
 * log's review_submitted events, kept as the log is read, and the ledger the
 * validation checkpoint keeps of them: what the prefix and one review.md
 * gave, so that a resumed validate looks only at the events after the prefix
 * and at the headings that name them, never at every review of a long log.
 * @module
 */
import { readTextIfExists } from './folder.ts';
import type { Host } from './host.ts';
import { pyStr, type ReviewHeading } from './pytext.ts';
import type { Json } from './types.ts';
import { isInt, isObject, pySeqKey } from './util.ts';

/** review.md for one validate: read at most once, and only when something needs its text (a ledger may stand for it). */
export class ReviewFile {
  readonly path: string;
  readonly #host: Host;
  #text: Promise<string | undefined> | undefined;

  constructor(host: Host, path: string) {
    this.#host = host;
    this.path = path;
  }

  /** Its text (a directory or nothing there: `undefined`); throws what readTextIfExists throws. */
  text(): Promise<string | undefined> {
    return (this.#text ??= readTextIfExists(this.#host, this.path, 'review.md', true));
  }

  /** Whether its text was asked for. */
  get read(): boolean {
    return this.#text !== undefined;
  }
}

/** What review.md says, step 7 asks, once the log has review events; `ref` is the primary deliverable's reference it was asked about. */
export interface ReviewMentions {
  /** Whether review.md is there (strict mode reads it only then). */
  present: boolean;
  reviewed: boolean;
  scope: boolean;
  completeness: boolean;
  ref: string | null;
  /** Whether review.md names `ref`. */
  primary: boolean;
}

/** Strict mode's findings in one review section (documents.ts strictReviewSections): its heading's seq, and whether that seq is a review event's. */
export interface StrictFinding {
  seq: number;
  errors: string[];
  /** Whether the seq is a review_submitted of the ledger's prefix (absent: the seq lies after it). */
  review?: boolean;
}

/**
 * What step 7 concluded for a prefix of the log (`count` events, kept
 * beside the ledger by the checkpoint) and one review.md: only what can
 * still speak, since the events of the prefix never change.
 */
export interface ReviewLedger {
  /** How many review_submitted events the prefix holds. */
  reviews: number;
  /** The seqs of the prefix's review events that no heading names, in order. */
  unheaded: number[];
  /**
   * The headings, in review.md's order, that gave findings (`messages`) or
   * name a seq after the prefix (no `messages`: checked against the events
   * read now); the others are silent for good.
   */
  headings: { seq: number; participant: string; messages?: string[] }[];
  /** Every heading's seq, sorted, as differences joined by commas (an event after the prefix that reuses an older seq asks). */
  headingSeqs: string;
  mentions: ReviewMentions;
  /** Strict mode's findings of the review sections that have any (absent: not asked for yet). */
  strict?: StrictFinding[];
}

/** What review.md (`undefined`: not there) mentions of what step 7 looks for. */
export function reviewMentions(text: string | undefined, ref: string | undefined): ReviewMentions {
  const body = text ?? '';
  return {
    present: text !== undefined,
    reviewed: body.includes('Reviewed primary deliverable:'),
    scope: body.includes('Review Scope:'),
    completeness: body.includes('Primary deliverable completeness'),
    ref: ref ?? null,
    primary: ref !== undefined && body.includes(ref),
  };
}

/** The messages of review.md's declarations, when the log has review events (spec §8 step 7). */
export function mentionErrors(mentions: ReviewMentions): string[] {
  const errors: string[] = [];
  if (!mentions.reviewed) errors.push('review.md must declare Reviewed primary deliverable');
  if (!mentions.scope) errors.push('review.md must declare Review Scope');
  if (!mentions.completeness) errors.push('review.md Review Scope must include Primary deliverable completeness');
  if (mentions.ref !== null && !mentions.primary) errors.push('review.md must reference the primary deliverable');
  return errors;
}

/** A heading to check, as review.md has it, with the findings a ledger kept for it (none: checked against the events). */
interface LinkedHeading {
  seq: number | bigint;
  participant: string;
  messages?: string[];
}

/**
 * Step 7's bookkeeping for one validate: the headings to check, the seqs
 * whose first event they need, and the review events read (or restored
 * from the checkpoint's list of the prefix's reviews); built from review.md's
 * headings, or from a ledger (then the prefix's events are already judged).
 */
export class ReviewLinks {
  readonly headings: LinkedHeading[];
  /** The seqs whose first event a heading still needs. */
  readonly watched: Set<unknown>;
  /** The first event of each watched seq: its seq, author and name. */
  readonly firstBySeq = new Map<unknown, Json>();
  /** The review events read or restored, in order: their seq, author and name. */
  readonly events: Json[] = [];
  /** The ledger this was built from, and the prefix it speaks for (events). */
  readonly ledger: ReviewLedger | undefined;
  readonly #count: number;
  #headingSeqs: Set<unknown> | undefined;
  #reviewSeqs: Set<unknown> | undefined;
  /** Each heading's messages as {@link ReviewLinks.errors} found them (by index), for the ledger (10k headings of a long review.md: judged once). */
  #judged: string[][] | undefined;

  private constructor(headings: LinkedHeading[], watched: Set<unknown>, ledger: ReviewLedger | undefined, count: number, headingSeqs?: Set<unknown>) {
    this.headings = headings;
    this.watched = watched;
    this.ledger = ledger;
    this.#count = count;
    this.#headingSeqs = headingSeqs;
  }

  /** Links to check every heading of review.md against the whole log. */
  static fromHeadings(headings: ReviewHeading[]): ReviewLinks {
    const seqs = new Set<unknown>(headings.map((h) => h.seq));
    return new ReviewLinks(headings, seqs, undefined, 0, seqs);
  }

  /** Links that take the first `count` events (the ledger's prefix) as judged, for the same review.md. */
  static fromLedger(ledger: ReviewLedger, count: number): ReviewLinks {
    return new ReviewLinks(ledger.headings, new Set(ledger.headings.filter((h) => !h.messages).map((h) => h.seq)), ledger, count);
  }

  /** Note an event read now (`seq`: its pySeqKey). */
  add(event: Json, seq: unknown): void {
    const review = event.event === 'review_submitted';
    const watched = this.watched.has(seq) && !this.firstBySeq.has(seq);
    if (!review && !watched) return;
    // Only what step 7 and the checkpoint read of it: a whole parsed event
    // (summary, time…) kept for each review of a long log is what a first
    // validate's garbage collector copied most.
    const kept: Json = { seq: event.seq, from: event.from, event: event.event };
    if (review) this.events.push(kept);
    if (watched) this.firstBySeq.set(seq, kept);
  }

  /** Restore the prefix's review events (seq and author), before any event is read. */
  restore(seqs: readonly number[], from: readonly string[]): void {
    for (let i = 0; i < seqs.length; i++) this.add({ seq: seqs[i], from: from[i], event: 'review_submitted' }, seqs[i]);
  }

  /** How many review events the log holds. */
  get count(): number {
    return (this.ledger?.reviews ?? 0) + this.events.length;
  }

  /** Whether a heading of review.md names `seq`. */
  hasHeading(seq: unknown): boolean {
    // After a ledger's prefix, the headings that name a seq are the watched ones.
    if (this.ledger && typeof seq === 'number' && seq > this.#count) return this.watched.has(seq);
    this.#headingSeqs ??= new Set(decodeSeqs(this.ledger!.headingSeqs));
    return this.#headingSeqs.has(seq);
  }

  /** Step 7's messages on the links, in the spec's order: the review events, then the headings. */
  errors(): string[] {
    const errors = (this.ledger?.unheaded ?? []).map((seq) => unheadedMessage(seq));
    for (const event of this.events) if (!this.hasHeading(pySeqKey(event.seq))) errors.push(unheadedMessage(event.seq));
    this.#judged = this.headings.map((heading) => heading.messages ?? headingErrors(heading, this.#firstEvent(heading.seq)));
    for (const messages of this.#judged) errors.push(...messages);
    return errors;
  }

  /** Whether `seq` (a review section's) is a review event's; `finding` carries the ledger's answer for its prefix. */
  isReview(seq: unknown, finding?: { review?: boolean }): boolean {
    if (finding?.review !== undefined) return finding.review;
    this.#reviewSeqs ??= new Set(this.events.map((event) => pySeqKey(event.seq)));
    return this.#reviewSeqs.has(seq);
  }

  /**
   * The ledger for the whole log read (`count` events, the checkpoint's new
   * prefix), or `undefined` when JSON cannot keep it exactly (a seq that is
   * no safe integer).
   */
  toLedger(count: number, mentions: ReviewMentions, strict: StrictFinding[] | undefined): ReviewLedger | undefined {
    const unheaded = [...(this.ledger?.unheaded ?? [])];
    for (const event of this.events) {
      if (!isInt(event.seq)) return undefined;
      if (!this.hasHeading(event.seq)) unheaded.push(event.seq);
    }
    const headings: ReviewLedger['headings'] = [];
    for (let index = 0; index < this.headings.length; index++) {
      const heading = this.headings[index]!;
      if (!isInt(heading.seq)) return undefined;
      const messages = heading.messages ?? (heading.seq <= count ? (this.#judged?.[index] ?? headingErrors(heading, this.#firstEvent(heading.seq))) : undefined);
      if (!messages || messages.length) headings.push({ seq: heading.seq, participant: heading.participant, ...(messages ? { messages } : {}) });
    }
    const headingSeqs = this.ledger?.headingSeqs ?? encodeSeqs(this.#headingSeqs!);
    // The review events' seqs only when a finding asks (a valid review.md has none).
    let reviewSeqs: Set<unknown> | undefined;
    const judged = strict?.map((f): StrictFinding => (f.review !== undefined || f.seq > count ? f : { ...f, review: (reviewSeqs ??= new Set(this.events.map((event) => event.seq))).has(f.seq) }));
    return { reviews: this.count, unheaded, headings, headingSeqs, mentions, ...(judged ? { strict: judged } : {}) };
  }

  #firstEvent(seq: number | bigint): Json | undefined {
    return typeof seq === 'number' ? this.firstBySeq.get(seq) : undefined;
  }
}

function unheadedMessage(seq: unknown): string {
  return `seq ${pyStr(seq)}: review_submitted requires matching review.md heading`;
}

/** What is wrong with a heading, given the first event of its seq. */
function headingErrors(heading: LinkedHeading, event: Json | undefined): string[] {
  if (!event) return [`review.md heading seq ${heading.seq}: no matching event`];
  if (event.event !== 'review_submitted') return [`review.md heading seq ${heading.seq}: matching event is ${pyStr(event.event)}, not review_submitted`];
  if (event.from !== heading.participant) return [`review.md heading seq ${heading.seq}: participant '${heading.participant}' does not match event from '${pyStr(event.from)}'`];
  return [];
}

/** Safe-integer seqs, sorted and deduplicated, as differences joined by commas (10k reviews: a short string, not 10k JSON numbers). */
function encodeSeqs(seqs: Iterable<unknown>): string {
  // A typed array sorts numbers without a comparison callback (several times faster in JavaScriptCore).
  const sorted = Float64Array.from([...seqs].filter(isInt)).sort();
  const steps: number[] = [];
  for (let i = 0; i < sorted.length; i++) steps.push(i ? sorted[i]! - sorted[i - 1]! : sorted[i]!);
  return steps.join(',');
}

function decodeSeqs(text: string): number[] {
  let seq = 0;
  return text ? text.split(',').map((step) => (seq += Number(step))) : [];
}

/** Whether a stored ledger has the shape {@link ReviewLinks.fromLedger} reads. */
export function isReviewLedger(value: unknown): value is ReviewLedger {
  if (!isObject(value) || !isInt(value.reviews) || !Array.isArray(value.unheaded) || !value.unheaded.every(isInt) || typeof value.headingSeqs !== 'string' || !isObject(value.mentions)) return false;
  if (!isObject(value.mentions) || typeof value.mentions.present !== 'boolean' || !(value.mentions.ref === null || typeof value.mentions.ref === 'string')) return false;
  const headingsOk = Array.isArray(value.headings) && value.headings.every((h) => isObject(h) && isInt(h.seq) && typeof h.participant === 'string' && (h.messages === undefined || (Array.isArray(h.messages) && h.messages.every((m) => typeof m === 'string'))));
  const strictOk = value.strict === undefined || (Array.isArray(value.strict) && value.strict.every((f) => isObject(f) && isInt(f.seq) && Array.isArray(f.errors) && (f.review === undefined || typeof f.review === 'boolean')));
  return headingsOk && strictOk;
}
