// Unit tests of the derived state machine (spec §5): transitions, who may act,
// and how errors accumulate across a replay.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { applyEvent, emptyState, readReadiness, replay } from '../acp.ts';
import { BOL, EOL, RUN_START, S, escapeRegExp } from '../runtime/pytext.ts';

const PARTICIPANTS = ['owner', 'rev-b', 'rev-a'];
const CLEAN = readReadiness('- [resolved] All questions handled.\n- [x] Ready to implement\n');

type Ev = (from: string, event: string, extra?: Record<string, unknown>) => Record<string, unknown>;

/**
 * A fresh event log builder: each call numbers its event one past the last
 * (from `first`), replying to the previous one. Every test makes its own, so
 * no test depends on another having run before it.
 */
function log(first = 1): Ev {
  let seq = first - 1;
  return (from, event, extra = {}) => {
    seq += 1;
    return { seq, from, event, at: '2026-01-01T00:00:00Z', summary: 's', ...(seq > 1 ? { reply_to: seq - 1 } : {}), ...extra };
  };
}

/** Seqs 1–3 on `ev` (a fresh builder): initialized, the primary drafted, the proposal submitted. */
function happyPrefix(ev: Ev): Record<string, unknown>[] {
  return [
    ev('owner', 'initialized', { doc: 'protocol.json' }),
    ev('owner', 'deliverable_drafted', { role: 'primary', doc: 'deliverables/adr.md' }),
    ev('owner', 'proposal_submitted'),
  ];
}

describe('transitions', () => {
  test('initialized makes the first actor owner and starts drafting', () => {
    const ev = log();
    const state = replay([ev('owner', 'initialized')], PARTICIPANTS, CLEAN);
    expect(state).toMatchObject({ phase: 'drafting', proposalOwner: 'owner', waitingFor: ['owner'], errors: [] });
  });

  test('proposal_submitted waits for every other participant, sorted', () => {
    const state = replay(happyPrefix(log()), PARTICIPANTS, CLEAN);
    expect(state.phase).toBe('reviewing');
    expect(state.waitingFor).toEqual(['rev-a', 'rev-b']);
    expect(state.errors).toEqual([]);
  });

  test('reviews are collected one by one, then the owner revises', () => {
    const ev = log();
    const events = [...happyPrefix(ev), ev('rev-b', 'review_submitted')];
    expect(replay(events, PARTICIPANTS, CLEAN)).toMatchObject({ phase: 'reviewing', waitingFor: ['rev-a'] });
    events.push(ev('rev-a', 'review_submitted'));
    expect(replay(events, PARTICIPANTS, CLEAN)).toMatchObject({ phase: 'revising', waitingFor: ['owner'], errors: [] });
  });

  test('the full path reaches completed', () => {
    const ev = log();
    const events = [
      ...happyPrefix(ev),
      ev('rev-a', 'review_submitted'),
      ev('rev-b', 'review_submitted'),
      ev('owner', 'proposal_revised'),
      ev('owner', 'question_classified'),
      ev('rev-a', 'decision_accepted'),
      ev('owner', 'decision_accepted'),
      ev('rev-b', 'decision_accepted'),
    ];
    const mid = replay(events, PARTICIPANTS, CLEAN);
    expect(mid).toMatchObject({ phase: 'readiness_check', waitingFor: ['owner'], errors: [] });
    events.push(
      ev('owner', 'deliverable_frozen', { role: 'primary', doc: 'deliverables/adr.md', sha256: 'a'.repeat(64) }),
      ev('owner', 'readiness_passed'),
      ev('owner', 'completed', { doc: 'conclusion.md' }),
    );
    const done = replay(events, PARTICIPANTS, CLEAN);
    expect(done).toMatchObject({ phase: 'completed', waitingFor: [], primaryFrozen: true, readinessPassed: true, errors: [] });
  });

  test('blocked is allowed from any phase and by anyone', () => {
    const ev = log();
    const state = replay([...happyPrefix(ev), ev('rev-a', 'blocked')], PARTICIPANTS, CLEAN);
    expect(state).toMatchObject({ phase: 'blocked', waitingFor: [], errors: [] });
  });

  test('supporting deliverable events have no state effect', () => {
    const before = replay(happyPrefix(log()), PARTICIPANTS, CLEAN);
    const ev = log();
    const after = replay([...happyPrefix(ev), ev('rev-a', 'deliverable_drafted', { role: 'supporting', doc: 'x.md' })], PARTICIPANTS, CLEAN);
    expect(after).toEqual(before);
  });
});

describe('errors', () => {
  test('a wrong actor is reserved-for with the allowed set sorted', () => {
    const ev = log();
    const state = replay([...happyPrefix(ev), ev('owner', 'review_submitted')], PARTICIPANTS, CLEAN);
    expect(state.errors).toEqual(['seq 4: review submission is reserved for rev-a, rev-b; got owner']);
  });

  test('phase and actor errors accumulate for one event, phase first', () => {
    const ev = log();
    const events = [ev('owner', 'initialized'), ev('rev-a', 'proposal_revised')];
    expect(replay(events, PARTICIPANTS, CLEAN).errors).toEqual([
      'seq 2: proposal_revised is not allowed from phase drafting',
      'seq 2: proposal revision is reserved for owner; got rev-a',
    ]);
  });

  test('errors of several events are all reported, in log order', () => {
    const ev = log();
    const events = [ev('owner', 'initialized'), ev('owner', 'proposal_submitted'), ev('owner', 'initialized')];
    expect(replay(events, PARTICIPANTS, CLEAN).errors).toEqual([
      'seq 2: proposal_submitted requires prior primary deliverable_drafted',
      'initialized must be seq 1',
    ]);
  });

  test('phase is printed as None before initialized', () => {
    const ev = log(2);
    expect(replay([ev('owner', 'review_submitted')], PARTICIPANTS, CLEAN).errors[0]).toBe('seq 2: review_submitted is not allowed from phase None');
  });

  test('an empty due set is "no participant"', () => {
    const ev = log();
    const events = [...happyPrefix(ev), ev('rev-a', 'review_submitted'), ev('rev-b', 'review_submitted'), ev('rev-a', 'decision_accepted')];
    expect(replay(events, PARTICIPANTS, CLEAN).errors).toEqual([
      'seq 6: decision_accepted is not allowed from phase revising',
      'seq 6: decision acceptance is reserved for no participant; got rev-a',
    ]);
  });

  test('decision gates use the current readiness.md for every decision_accepted', () => {
    const ev = log();
    const events = [
      ...happyPrefix(ev),
      ev('rev-a', 'review_submitted'),
      ev('rev-b', 'review_submitted'),
      ev('owner', 'proposal_revised'),
      ev('owner', 'question_classified'),
      ev('rev-a', 'decision_accepted'),
      ev('rev-b', 'decision_accepted'),
    ];
    expect(replay(events, PARTICIPANTS, CLEAN).errors).toEqual([]);
    const dirty = readReadiness('- [blocking] Data loss on failover\n- [deferred_nonblocking] later\n');
    expect(replay(events, PARTICIPANTS, dirty).errors).toEqual([
      'seq 8: blocking readiness items must be cleared before decision_accepted',
      'seq 8: deferred_nonblocking readiness items require a reason before decision_accepted',
      'seq 9: blocking readiness items must be cleared before decision_accepted',
      'seq 9: deferred_nonblocking readiness items require a reason before decision_accepted',
    ]);
  });

  test('decision_accepted needs a classification newer than the latest decision input', () => {
    const ev = log();
    const events = [
      ...happyPrefix(ev),
      ev('rev-a', 'review_submitted'),
      ev('rev-b', 'review_submitted'),
      ev('owner', 'proposal_revised'),
      ev('owner', 'question_classified'),
      ev('owner', 'decision_proposed'),
      ev('rev-a', 'decision_accepted'),
    ];
    expect(replay(events, PARTICIPANTS, CLEAN).errors).toContain(
      'seq 9: decision_accepted requires question_classified after the latest proposal or decision',
    );
  });

  test('freeze only once, no revision after freeze', () => {
    const state = emptyState();
    state.phase = 'readiness_check';
    state.proposalOwner = 'owner';
    state.primaryFrozen = true;
    applyEvent(state, { seq: 20, from: 'owner', event: 'deliverable_frozen', role: 'primary' }, PARTICIPANTS, CLEAN);
    applyEvent(state, { seq: 21, from: 'owner', event: 'deliverable_revised', role: 'primary' }, PARTICIPANTS, CLEAN);
    expect(state.errors).toEqual([
      'seq 20: primary deliverable can be frozen only once',
      'seq 21: deliverable_revised is not allowed after deliverable_frozen',
      'seq 21: deliverable_revised is not allowed from phase readiness_check',
    ]);
  });

  test('completed needs readiness_passed and conclusion.md', () => {
    const state = emptyState();
    state.phase = 'readiness_check';
    state.proposalOwner = 'owner';
    applyEvent(state, { seq: 9, from: 'rev-a', event: 'completed', doc: 'readiness.md' }, PARTICIPANTS, CLEAN);
    expect(state.errors).toEqual([
      'seq 9: completed requires a prior readiness_passed event',
      'seq 9: completed must reference conclusion.md',
      'seq 9: completion is reserved for owner; got rev-a',
    ]);
  });
});

describe('readiness.md', () => {
  test('classifies items as the spec says', () => {
    const facts = readReadiness(
      [
        '- [blocking] a',
        '- [unresolved] b',
        '- [resolved] c TBD',
        '- [deferred_nonblocking] d',
        '- [deferred_nonblocking] e Reason: later',
        '- [Blocking] not a status',
        '  - [X] Ready to implement',
        '- [x] Gate one',
      ].join('\n'),
    );
    expect(facts.blocking).toEqual(['a']);
    expect(facts.unresolved).toEqual(['b', 'c TBD']);
    expect(facts.deferredWithoutReason).toEqual(['d']);
    expect(facts.readyToImplement).toBe(true);
    expect(facts.isGateChecked('Gate one')).toBe(true);
    expect(facts.isGateChecked('Gate two')).toBe(false);
  });

  test('isGateChecked answers what its regex alone answers (the cheap checks before it only skip it)', () => {
    const regexAlone = (text: string, gate: string): boolean => new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[[xX]\\]${S}*${escapeRegExp(gate)}${S}*${EOL}`, 'u').test(text);
    const piece = fc.constantFrom('- ', '-', '[x]', '[X]', '[ ]', ' ', '\n', '\u2028', 'Gate', 'Gate one', 'one', '(a+b)', '  ', '\t');
    const text = fc.array(piece, { maxLength: 14 }).map((parts) => parts.join(''));
    const gate = fc.constantFrom('Gate', 'Gate one', 'one', '(a+b)', 'x]');
    fc.assert(
      fc.property(text, gate, (t, g) => {
        expect(readReadiness(t).isGateChecked(g)).toBe(regexAlone(t, g));
      }),
      { numRuns: 2000 },
    );
    // Both outcomes occur: the property is not vacuous.
    expect(regexAlone('- [x] Gate one', 'Gate one')).toBe(true);
    expect(readReadiness('- [x]\n\nGate one').isGateChecked('Gate one')).toBe(regexAlone('- [x]\n\nGate one', 'Gate one'));
  });
});
