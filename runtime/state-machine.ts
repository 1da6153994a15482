/**
 * The derived state machine (spec §5): the phase and the turn after each
 * event, and the rule an event breaks and its stable code (whose turn it is
 * against protocol.json's cache is runtime/turn.ts's).
 * @module
 */
import { decisionGateErrors } from './documents.ts';
import { pyStr, sortedPy } from './pytext.ts';
import type { DerivedState, Json, Phase, ReadinessFacts, RefusalCode } from './types.ts';
import { isPyIntLike, pySeqKey } from './util.ts';

/** Record a broken rule: its message (validate prints it) and its code. */
function breakRule(state: DerivedState, code: RefusalCode, message: string): void {
  state.errors.push(message);
  state.codes.push(code);
}

/** The code of a refused event: a wrong phase outranks a wrong actor (nobody may do it now). */
export function refusalCodeOf(state: DerivedState): RefusalCode {
  if (state.codes.includes('phase')) return 'phase';
  if (state.codes.includes('not_your_turn')) return 'not_your_turn';
  return 'invalid_event';
}

/** The initial (empty) derived state. */
export function emptyState(): DerivedState {
  return {
    phase: null,
    proposalOwner: null,
    waitingFor: [],
    reviewersDue: [],
    acceptorsDue: [],
    latestClassification: 0,
    latestDecisionInput: 0,
    primaryDrafted: false,
    primaryFrozen: false,
    readinessPassed: false,
    errors: [],
    codes: [],
  };
}

const PHASE_RULES: Record<string, { phases: Phase[]; action: string }> = {
  deliverable_drafted: { phases: ['drafting', 'revising', 'decision_review'], action: 'deliverable draft' },
  deliverable_revised: { phases: ['revising', 'decision_review'], action: 'deliverable revision' },
  deliverable_frozen: { phases: ['readiness_check'], action: 'deliverable freeze' },
  proposal_submitted: { phases: ['drafting', 'revising'], action: 'proposal submission' },
  review_submitted: { phases: ['reviewing'], action: 'review submission' },
  proposal_revised: { phases: ['revising'], action: 'proposal revision' },
  decision_proposed: { phases: ['revising', 'decision_review'], action: 'decision proposal' },
  question_classified: { phases: ['decision_review'], action: 'question classification' },
  decision_accepted: { phases: ['decision_review'], action: 'decision acceptance' },
  readiness_passed: { phases: ['readiness_check'], action: 'readiness pass' },
  completed: { phases: ['readiness_check'], action: 'completion' },
};

/** `seq {s}` of an event, as messages print it. */
export function seqText(event: Json): string {
  return pyStr(event.seq);
}

// The checks of applyEvent, as plain functions: a replay of a long log
// calls them for every event, and closures per event cost memory.
function requirePhase(state: DerivedState, event: Json, allowed: Phase[]): void {
  if (!state.phase || !allowed.includes(state.phase)) breakRule(state, 'phase', `seq ${seqText(event)}: ${pyStr(event.event)} is not allowed from phase ${state.phase ?? 'None'}`);
}

function requireActor(state: DerivedState, event: Json, allowed: string[], action: string): void {
  const actor = event.from;
  if (typeof actor === 'string' && allowed.includes(actor)) return;
  const who = allowed.length ? sortedPy(allowed).join(', ') : 'no participant';
  breakRule(state, 'not_your_turn', `seq ${seqText(event)}: ${action} is reserved for ${who}; got ${pyStr(actor)}`);
}

function requireOwner(state: DerivedState, event: Json, action: string): void {
  if (state.proposalOwner !== null) requireActor(state, event, [state.proposalOwner], action);
}

function ownerList(state: DerivedState): string[] {
  return state.proposalOwner === null ? [] : [state.proposalOwner];
}

/**
 * Apply one event to the derived state (mutates `state`), recording errors.
 * `readiness` is the *current* readiness.md (decision gates, spec §5).
 */
export function applyEvent(state: DerivedState, event: Json, participants: string[], readiness: ReadinessFacts): void {
  const name = event.event;
  // Supporting-deliverable events (most of a long log) have no effect.
  if (event.role !== 'primary' && DELIVERABLE_EVENTS.has(name as string)) return;
  // One small function per event: a replay of a long log makes them hot, and
  // the JIT compiles small functions much faster than one big switch.
  switch (name) {
    case 'initialized':
      return applyInitialized(state, event, participants);
    case 'blocked':
      state.phase = 'blocked';
      state.waitingFor = [];
      return;
    case 'deliverable_drafted':
    case 'deliverable_revised':
    case 'deliverable_frozen':
      return applyPrimaryDeliverable(state, event, name);
    case 'proposal_submitted':
      return applyProposalSubmitted(state, event, participants);
    case 'review_submitted':
      return applyReviewSubmitted(state, event);
    case 'proposal_revised':
    case 'decision_proposed':
      return applyDecisionInput(state, event, name);
    case 'question_classified':
      return applyQuestionClassified(state, event, participants);
    case 'decision_accepted':
      return applyDecisionAccepted(state, event, readiness);
    case 'readiness_passed':
      return applyReadinessPassed(state, event);
    case 'completed':
      return applyCompleted(state, event);
    default:
      return;
  }
}

function applyInitialized(state: DerivedState, event: Json, participants: string[]): void {
  const actor = event.from;
  if (pySeqKey(event.seq) !== 1) breakRule(state, 'invalid_event', 'initialized must be seq 1');
  if (typeof actor !== 'string' || !participants.includes(actor)) breakRule(state, 'invalid_event', `seq ${seqText(event)}: initialized participant is not listed in protocol.json`);
  state.proposalOwner = typeof actor === 'string' ? actor : pyStr(actor);
  state.phase = 'drafting';
  state.waitingFor = [state.proposalOwner];
}

function applyPrimaryDeliverable(state: DerivedState, event: Json, name: 'deliverable_drafted' | 'deliverable_revised' | 'deliverable_frozen'): void {
  const rule = PHASE_RULES[name]!;
  if (name === 'deliverable_revised' && state.primaryFrozen) breakRule(state, 'invalid_event', `seq ${seqText(event)}: deliverable_revised is not allowed after deliverable_frozen`);
  if (name === 'deliverable_frozen' && state.primaryFrozen) breakRule(state, 'invalid_event', `seq ${seqText(event)}: primary deliverable can be frozen only once`);
  requirePhase(state, event, rule.phases);
  requireOwner(state, event, rule.action);
  if (name === 'deliverable_frozen') state.primaryFrozen = true;
  else state.primaryDrafted = true;
}

function applyProposalSubmitted(state: DerivedState, event: Json, participants: string[]): void {
  const actor = event.from;
  requirePhase(state, event, PHASE_RULES.proposal_submitted!.phases);
  if (!state.primaryDrafted) breakRule(state, 'invalid_event', `seq ${seqText(event)}: proposal_submitted requires prior primary deliverable_drafted`);
  requireActor(state, event, state.proposalOwner === null ? [pyStr(actor)] : [state.proposalOwner], 'proposal submission');
  state.proposalOwner = pyStr(actor);
  state.reviewersDue = participants.filter((p) => p !== state.proposalOwner);
  if (!state.reviewersDue.length) breakRule(state, 'invalid_event', `seq ${seqText(event)}: proposal_submitted requires at least one reviewer`);
  state.phase = 'reviewing';
  state.waitingFor = sortedPy(new Set(state.reviewersDue));
}

function applyReviewSubmitted(state: DerivedState, event: Json): void {
  const actor = event.from;
  requirePhase(state, event, PHASE_RULES.review_submitted!.phases);
  requireActor(state, event, state.reviewersDue, 'review submission');
  state.reviewersDue = state.reviewersDue.filter((p) => p !== actor);
  // Each event sets the phase it leads to, even one refused from another phase (the Python tools' replay).
  if (state.reviewersDue.length) {
    state.phase = 'reviewing';
    state.waitingFor = sortedPy(new Set(state.reviewersDue));
  } else {
    state.phase = 'revising';
    state.waitingFor = ownerList(state);
  }
}

function applyDecisionInput(state: DerivedState, event: Json, name: 'proposal_revised' | 'decision_proposed'): void {
  const rule = PHASE_RULES[name]!;
  requirePhase(state, event, rule.phases);
  requireOwner(state, event, rule.action);
  state.latestDecisionInput = isPyIntLike(event.seq) ? Number(pySeqKey(event.seq)) : 0;
  state.latestClassification = 0;
  state.phase = 'decision_review';
  state.waitingFor = ownerList(state);
}

function applyQuestionClassified(state: DerivedState, event: Json, participants: string[]): void {
  requirePhase(state, event, PHASE_RULES.question_classified!.phases);
  requireOwner(state, event, 'question classification');
  state.latestClassification = isPyIntLike(event.seq) ? Number(pySeqKey(event.seq)) : 0;
  state.acceptorsDue = [...participants];
  state.phase = 'decision_review';
  state.waitingFor = sortedPy(new Set(state.acceptorsDue));
}

function applyDecisionAccepted(state: DerivedState, event: Json, readiness: ReadinessFacts): void {
  const actor = event.from;
  requirePhase(state, event, PHASE_RULES.decision_accepted!.phases);
  if (state.latestDecisionInput && state.latestClassification <= state.latestDecisionInput) {
    breakRule(state, 'invalid_event', `seq ${seqText(event)}: decision_accepted requires question_classified after the latest proposal or decision`);
  }
  requireActor(state, event, state.acceptorsDue, 'decision acceptance');
  // The gates read the *current* readiness.md, on every replay (spec §5).
  for (const message of decisionGateErrors(readiness)) breakRule(state, 'invalid_event', `seq ${seqText(event)}: ${message}`);
  state.acceptorsDue = state.acceptorsDue.filter((p) => p !== actor);
  if (state.acceptorsDue.length) {
    state.phase = 'decision_review';
    state.waitingFor = sortedPy(new Set(state.acceptorsDue));
  } else {
    state.phase = 'readiness_check';
    state.waitingFor = ownerList(state);
  }
}

function applyReadinessPassed(state: DerivedState, event: Json): void {
  requirePhase(state, event, PHASE_RULES.readiness_passed!.phases);
  if (!state.primaryFrozen) breakRule(state, 'invalid_event', `seq ${seqText(event)}: readiness_passed requires primary deliverable_frozen`);
  requireOwner(state, event, 'readiness pass');
  state.readinessPassed = true;
  state.phase = 'readiness_check';
  state.waitingFor = ownerList(state);
}

function applyCompleted(state: DerivedState, event: Json): void {
  if (state.phase !== 'readiness_check' || !state.readinessPassed) breakRule(state, 'invalid_event', `seq ${seqText(event)}: completed requires a prior readiness_passed event`);
  if (event.doc !== 'conclusion.md') breakRule(state, 'invalid_event', `seq ${seqText(event)}: completed must reference conclusion.md`);
  requireOwner(state, event, 'completion');
  state.phase = 'completed';
  state.waitingFor = [];
}

/** Replay a whole log (spec §5). */
export function replay(events: Json[], participants: string[], readiness: ReadinessFacts): DerivedState {
  const state = emptyState();
  for (const event of events) applyEvent(state, event, participants, readiness);
  return state;
}

/** DerivedState keys the append checkpoint stores (all but the readiness-dependent errors). */
export function stateKeys(): string[] {
  return Object.keys(emptyState())
    .filter((key) => key !== 'errors' && key !== 'codes')
    .sort();
}

/** The events that name a deliverable document (`doc`, `role`). */
export const DELIVERABLE_EVENTS = new Set(['deliverable_drafted', 'deliverable_revised', 'deliverable_frozen']);
