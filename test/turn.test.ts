// One rule for the turn (issue 35, "One rule for the turn"; issue 40 item 9):
// every door answers "whose turn" with runtime/turn.ts, and nothing else
// reads protocol.json's cached turn. The rule is decided from the files
// alone: a cache one line behind the log (an append that died between its
// line and its rename) gives the log's answer with a note; a hand edit gives
// protocol.json's answer, as the Python tools read it — also when the log's
// events share one second, where the old timestamp heuristic was not
// deterministic.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { status as mcpStatus } from '../plugins/mcp/tools.ts';
import { loadSnapshot } from '../plugins/humans/snapshot.ts';
import { RpcClient } from '../plugins/rpc/client.ts';
import { acp as cli } from './humans/context.ts';
import { cleanup, happyFolder, OWNER, REVIEWER, STEPS, tempRoot } from './humans/folders.ts';
import { ALICE_TOKEN, BOB_TOKEN, startServer } from './rpc/helpers.ts';
import { python3 } from './python/oracle.ts';
import { referenceDir, referenceMissing } from './python/reference.ts';
import { byScale } from './scale.ts';
import { rng } from './seeded.ts';

afterAll(cleanup);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SECOND = '2026-03-01T10:00:00Z';

// ---------------------------------------------------------------- folders

type Json = Record<string, unknown>;

const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const readLog = (folder: string): Json[] => readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json);
const writeLog = (folder: string, events: Json[]): void => writeFileSync(join(folder, 'events.jsonl'), events.map((e) => `${JSON.stringify(e)}\n`).join(''));
const writeProtocol = (folder: string, protocol: Json): void => writeFileSync(join(folder, 'protocol.json'), acp.formatProtocolJson(protocol));

/** The happy path's turn after step `k` (0 = just initialised). */
function turnAfter(k: number): { currentPhase: string; proposalOwner: string; waitingFor: string[] } {
  return k === 0 ? { currentPhase: 'drafting', proposalOwner: OWNER, waitingFor: [OWNER] } : { currentPhase: STEPS[k - 1]!.phase, proposalOwner: OWNER, waitingFor: STEPS[k - 1]!.waitingFor };
}

/** Agrees: six steps in (decision_review, alice and bob to accept), written by acp. */
async function agreeing(): Promise<string> {
  return happyFolder(5);
}

/**
 * Behind: alice's decision_accepted line landed but protocol.json was not
 * renamed (a killed append), and every event shares one second, so no time
 * tells the two apart: the cache equals the state after the log minus its
 * last line.
 */
async function behind(): Promise<string> {
  const folder = await happyFolder(6);
  const events = readLog(folder).map((e) => ({ ...e, at: SECOND }));
  writeLog(folder, events);
  writeProtocol(folder, { ...readJson(join(folder, 'protocol.json')), ...turnAfter(5), updatedAt: SECOND });
  return folder;
}

/**
 * Hand-edited: seven steps in (bob to accept), every event in one second,
 * and protocol.json edited back to the turn after step 4 (alice's alone), its
 * updatedAt left as it was. The old heuristic took it as stale (the time
 * matched an earlier event's); the Python tools read it as written.
 */
async function handEdited(): Promise<string> {
  const folder = await happyFolder(6);
  writeLog(folder, readLog(folder).map((e) => ({ ...e, at: SECOND })));
  writeProtocol(folder, { ...readJson(join(folder, 'protocol.json')), ...turnAfter(4), updatedAt: SECOND });
  return folder;
}

// ---------------------------------------------------------------- the rule

describe('the rule, from the files alone', () => {
  const protocol = (turn: Json, updatedAt = SECOND): Json => ({ participants: [{ id: OWNER }, { id: REVIEWER }], ...turn, updatedAt });
  const event = (seq: number, from: string, name: string, at = SECOND, extra: Json = {}): Json => ({ seq, from, event: name, at, summary: name, ...extra });
  const LOG = [
    event(1, OWNER, 'initialized'),
    event(2, OWNER, 'proposal_submitted', SECOND, { doc: 'proposal.md' }),
    event(3, REVIEWER, 'review_submitted', SECOND, { doc: 'review.md' }),
  ];
  const drafting = { currentPhase: 'drafting', proposalOwner: OWNER, waitingFor: [OWNER] };
  const reviewing = { currentPhase: 'reviewing', proposalOwner: OWNER, waitingFor: [REVIEWER] };
  const revising = { currentPhase: 'revising', proposalOwner: OWNER, waitingFor: [OWNER] };

  test('a cache equal to the log agrees; an empty log leaves the cache as it is', () => {
    expect(acp.turnOf(protocol(revising), LOG)).toMatchObject({ phase: 'revising', waitingFor: [OWNER], source: 'log', cache: 'agrees' });
    expect(acp.turnOf(protocol(reviewing), [])).toMatchObject({ phase: 'reviewing', waitingFor: [REVIEWER], source: 'cache', cache: 'no-log-turn' });
  });

  test('one line behind: the log, with a note, whatever the times say', () => {
    for (const updatedAt of [SECOND, '2026-03-01T09:00:00Z', 'not a time']) {
      const turn = acp.turnOf(protocol(reviewing, updatedAt), LOG);
      expect(turn).toMatchObject({ phase: 'revising', waitingFor: [OWNER], source: 'log', cache: 'behind', staleAt: { seq: 2 } });
      expect(acp.staleNote(turn)).toBe('protocol.json is stale (it describes seq 2; the log ends at seq 3): answering from the log; the next append or `acp doctor --fix` rewrites it');
    }
  });

  test('two lines behind: the log only when updatedAt is an earlier event\'s time and not the last one\'s', () => {
    const spread = [event(1, OWNER, 'initialized', '2026-03-01T10:00:00Z'), { ...LOG[1]!, at: '2026-03-01T10:00:01Z' }, { ...LOG[2]!, at: '2026-03-01T10:00:02Z' }];
    expect(acp.turnOf(protocol(drafting, '2026-03-01T10:00:00Z'), spread)).toMatchObject({ phase: 'revising', source: 'log', cache: 'behind', staleAt: { seq: 1 } });
    // The same cache in a log whose events share one second: a hand edit (the Python tools' answer).
    expect(acp.turnOf(protocol(drafting), LOG)).toMatchObject({ phase: 'drafting', waitingFor: [OWNER], source: 'cache', cache: 'edited', log: { phase: 'revising' } });
  });

  test('a cache that matches no point of the log is read as written', () => {
    const turn = acp.turnOf(protocol({ currentPhase: 'completed', proposalOwner: OWNER, waitingFor: 'nobody' }), LOG);
    expect(turn).toMatchObject({ phase: 'completed', waitingFor: [], source: 'cache', cache: 'edited' });
    expect(acp.staleNote(turn)).toBeUndefined();
  });

  test('a follower fed line by line answers as a whole read (the waiter, the JSON-RPC watcher)', () => {
    const tracker = new acp.TurnTracker([OWNER, REVIEWER]);
    for (const e of LOG) tracker.add(e);
    for (const cache of [drafting, reviewing, revising]) expect(tracker.turn(protocol(cache))).toEqual(acp.turnOf(protocol(cache), LOG));
  });
});

// ---------------------------------------------------------------- Python

const REFERENCE = referenceDir();
const NO_ORACLE = referenceMissing();

function python(script: string, args: string[]): { rc: number; stdout: string; stderr: string } {
  const run = spawnSync(python3(), [join(REFERENCE!, 'scripts', script), ...args], { encoding: 'utf8' });
  return { rc: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}

const sameTurn = (a: ReturnType<typeof turnAfter>, b: ReturnType<typeof turnAfter>): boolean => JSON.stringify(a) === JSON.stringify(b);
/**
 * Every folder of the happy path (after 2 steps and more) with protocol.json
 * edited back to an older turn that is neither the log's nor the one before
 * its last line (rule 3 reads that one as a killed append, on purpose).
 */
const ALL_HAND_EDITS = STEPS.slice(1).flatMap((_, i) => {
  const steps = i + 2;
  return Array.from({ length: steps - 1 }, (__, editedTo) => ({ steps, editedTo })).filter(({ editedTo }) => !sameTurn(turnAfter(editedTo), turnAfter(steps)) && !sameTurn(turnAfter(editedTo), turnAfter(steps - 1)));
});
/** A seeded sample: one in npm test, twelve in test:all, every case in test:long (each costs two Python starts and two waits per participant). */
const HAND_EDITS = (() => {
  const random = rng(35);
  const order = ALL_HAND_EDITS.map((c) => ({ c, key: random() })).sort((a, b) => a.key - b.key).map(({ c }) => c);
  return order.slice(0, byScale({ quick: 1, full: 12, long: order.length })).sort((a, b) => a.steps - b.steps);
})();

describe.skipIf(NO_ORACLE !== undefined)(`next and wait agree with the Python tools${NO_ORACLE ? ` [skipped: ${NO_ORACLE}]` : ''}`, () => {
  test('a hand edit to an older turn in a log whose events share one second: protocol.json\'s answer (issue 40 item 9)', async () => {
    const folder = await handEdited();
    for (const participant of [OWNER, REVIEWER]) {
      const mine = await cli(['next', '--folder', folder, '--participant', participant]);
      expect(mine).toEqual(python('next_action.py', ['--folder', folder, '--participant', participant]));
      expect(mine.stdout).toMatch(/^phase: decision_review\nproposal owner: alice\nwaiting for: alice\n/);
    }
    // bob: the log says his turn, protocol.json does not; the Python tools time out.
    const args = ['--folder', folder, '--participant', REVIEWER, '--timeout', '0.2', '--interval', '0.1'];
    const mine = await cli(['wait', ...args]);
    expect(mine).toEqual(python('wait_for_turn.py', args));
    expect(mine.rc).toBe(1);
  });

  test(`every hand edit to an older turn, events in one second: next and wait as the Python tools (${HAND_EDITS.length} of ${ALL_HAND_EDITS.length} cases; all in test:long)`, async () => {
    const folders = new Map<number, string>();
    for (const { steps, editedTo } of HAND_EDITS) {
      if (!folders.has(steps)) {
        const folder = await happyFolder(steps);
        writeLog(folder, readLog(folder).map((e) => ({ ...e, at: SECOND })));
        folders.set(steps, folder);
      }
      const folder = folders.get(steps)!;
      writeProtocol(folder, { ...readJson(join(folder, 'protocol.json')), ...turnAfter(editedTo), updatedAt: SECOND });
      for (const participant of [OWNER, REVIEWER]) {
        const label = `${steps} steps, protocol.json edited to the turn after step ${editedTo}, ${participant}`;
        expect(await cli(['next', '--folder', folder, '--participant', participant]), label).toEqual(python('next_action.py', ['--folder', folder, '--participant', participant]));
        const args = ['--folder', folder, '--participant', participant, '--timeout', '0.2', '--interval', '0.1'];
        const mine = await cli(['wait', ...args]);
        const theirs = python('wait_for_turn.py', args);
        expect({ rc: mine.rc, stderr: mine.stderr, ready: mine.stdout.split('\n')[0] }, label).toEqual({ rc: theirs.rc, stderr: theirs.stderr, ready: theirs.stdout.split('\n')[0] });
      }
    }
  });

  test('one line behind: the log\'s answer and a note (the Python tools read the stale cache; acp departs, [beyond])', async () => {
    const folder = await behind();
    const mine = await cli(['next', '--folder', folder, '--participant', REVIEWER]);
    expect(mine.stdout).toMatch(/^phase: decision_review\nproposal owner: alice\nwaiting for: bob\nlast event: seq 7 decision_accepted from alice\n/);
    expect(mine.stderr).toBe('note: protocol.json is stale (it describes seq 6; the log ends at seq 7): answering from the log; the next append or `acp doctor --fix` rewrites it\n');
    expect(python('next_action.py', ['--folder', folder, '--participant', REVIEWER]).stdout).toMatch(/^phase: decision_review\nproposal owner: alice\nwaiting for: alice, bob\n/);
    const wait = await cli(['wait', '--folder', folder, '--participant', OWNER, '--timeout', '0.2', '--interval', '0.1']);
    expect([wait.rc, wait.stderr]).toEqual([1, 'timeout: waiting for bob after seq 7\n']);
  });
});

// ---------------------------------------------------------------- every door

/** What each door answers for `folder`: phase and waitingFor, and for `wait` whether `participant` would be ready. */
async function doors(folder: string, participant: string): Promise<Record<string, unknown>> {
  const host = await acp.createNodeHost();
  const registry = await acp.createRegistry();
  const answers: Record<string, unknown> = {};
  const next = await cli(['next', '--folder', folder, '--participant', participant, '--json']);
  const nextJson = JSON.parse(next.stdout) as Json;
  answers['cli next'] = { phase: nextJson.phase, waitingFor: nextJson.waitingFor };
  const wait = await cli(['wait', '--folder', folder, '--participant', participant, '--timeout', '0.1', '--interval', '0.05']);
  answers['cli wait'] = wait.rc === 0;
  const status = JSON.parse((await cli(['status', '--folder', folder, '--json'])).stdout) as Json;
  answers['cli status'] = { phase: status.phase, waitingFor: status.waitingFor };
  const library = await (await acp.openCollaboration(folder)).next(participant);
  answers.library = { phase: library.phase, waitingFor: library.waitingFor };
  const mcpEnv = { core: acp, host, registry, root: dirname(folder) };
  const mcp = await mcpStatus(mcpEnv, folder);
  answers['mcp status'] = { phase: mcp.phase, waitingFor: mcp.waitingFor };
  const mcpMine = await mcpStatus(mcpEnv, folder, participant);
  answers['mcp status (participant)'] = { phase: mcpMine.phase, waitingFor: mcpMine.waitingFor };
  const snapshot = await loadSnapshot({ api: acp.libraryApi(), host, registry }, folder);
  answers['report / dashboard model'] = { phase: snapshot.phase, waitingFor: snapshot.waitingFor };
  const server = await startServer(dirname(folder));
  try {
    const client = await RpcClient.connect(`tcp://127.0.0.1:${server.port}`, { token: participant === OWNER ? ALICE_TOKEN : BOB_TOKEN, heartbeatMs: 0 });
    const task = relative(dirname(folder), folder);
    const rpc = (await client.call('task/status', { task })) as Json;
    answers['rpc task/status'] = { phase: rpc.phase, waitingFor: rpc.waitingFor };
    const list = (await client.call('agent/list')) as { agents: Array<{ agent: string; collaborations?: Array<{ task: string; phase: unknown; turn: boolean }> }> };
    const mine = list.agents.filter((a) => a.collaborations?.some((c) => c.task === task));
    const subscription = await client.subscribe({ task, participant }, () => undefined);
    const initial = subscription.initial as { ready?: boolean; state: { phase: unknown; waitingFor: unknown } };
    answers['rpc agent/subscribe'] = { phase: initial.state.phase, waitingFor: initial.state.waitingFor };
    answers['rpc agent/subscribe (ready)'] = initial.ready === true;
    await subscription.unsubscribe();
    // task/result refuses a collaboration that is not completed, naming its phase (task/cancel reads the phase alike).
    const result = await client.call('task/result', { task }).then(() => undefined, (error: { data?: Json }) => error.data);
    answers['rpc task/result'] = { phase: result?.phase };
    answers['rpc agent/list'] = { phase: mine[0]?.collaborations?.[0]?.phase, waitingFor: mine.filter((a) => a.collaborations!.find((c) => c.task === task)!.turn).map((a) => a.agent) };
    client.close();
  } finally {
    await server.close();
  }
  return answers;
}

/** Every door's answer, expected the same: `turn` for the phase/waitingFor doors, and whether wait is ready. */
function expectSame(answers: Record<string, unknown>, turn: { phase: string; waitingFor: string[] }, ready: boolean): void {
  const expected = Object.fromEntries(Object.keys(answers).map((door) => [door, door === 'cli wait' || door === 'rpc agent/subscribe (ready)' ? ready : door === 'rpc task/result' ? { phase: turn.phase } : turn]));
  expect(answers).toEqual(expected);
}

describe('every door answers alike', () => {
  test('a cache that agrees with the log', async () => {
    expectSame(await doors(await agreeing(), REVIEWER), { phase: 'decision_review', waitingFor: [OWNER, REVIEWER] }, true);
  });

  test('a cache one line behind the log (a killed append): the log', async () => {
    expectSame(await doors(await behind(), OWNER), { phase: 'decision_review', waitingFor: [REVIEWER] }, false);
  });

  test('a hand-edited cache: protocol.json, as the Python tools read it', async () => {
    expectSame(await doors(await handEdited(), REVIEWER), { phase: 'decision_review', waitingFor: [OWNER] }, false);
  });
});

// ---------------------------------------------------------------- one reader

/** Where the turn's keys may be named: the rule itself, and the lines that declare or first write them. */
const ALLOWED = {
  module: 'runtime/turn.ts',
  lines: [
    // acp.ts: ProtocolDocument's declaration of the key (a type), and init's template (a new folder's first turn: a write).
    'currentPhase: Phase | null;',
    "currentPhase: 'drafting',",
  ],
};

/**
 * The code of a TypeScript source with comments and the text of string and
 * template literals blanked (their `${…}` parts stay code), except a string
 * that is exactly a key this test looks for (`protocol['waitingFor']`,
 * `'currentPhase' in x`). Lines keep their numbers.
 */
function codeOf(text: string, keys: ReadonlySet<string>): string {
  let out = '';
  let i = 0;
  const braces: number[] = []; // open `{` counts of each template's `${` we are inside
  const blank = (from: number, to: number): string => text.slice(from, to).replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += blank(i, stop);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const stop = text.indexOf('*/', i + 2) + 2;
      out += blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      const body = text.slice(i + 1, j);
      out += keys.has(body) ? text.slice(i, j + 1) : c + blank(i + 1, j) + c;
      i = j + 1;
    } else if (c === '`' || (c === '}' && braces.length && braces.at(-1) === 0)) {
      // A template's text, up to its end or its next `${`.
      if (c === '}') braces.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{')) j += text[j] === '\\' ? 2 : 1;
      out += c + blank(i + 1, j);
      if (text[j] === '$') {
        braces.push(0);
        out += '${';
        i = j + 2;
      } else {
        out += '`';
        i = j + 1;
      }
    } else {
      if (braces.length && c === '{') braces[braces.length - 1]!++;
      if (braces.length && c === '}') braces[braces.length - 1]!--;
      out += c;
      i++;
    }
  }
  return out;
}

const KEYS: ReadonlySet<string> = new Set(['currentPhase', 'waitingFor']);

/**
 * The places in `text` that read protocol.json's cached turn, as
 * `line: code`. Without a type checker (TypeScript 7 has no JavaScript API)
 * the types are read from declarations: `currentPhase` is only ever
 * protocol.json's key, so any mention counts; `waitingFor` is also every
 * derived state's, so it counts when read through a string key (`x['waitingFor']`,
 * `'waitingFor' in x`; a type such as Pick<T, 'waitingFor'> is no read) or from a
 * name declared as protocol.json's types (Json, JsonObject, ProtocolDocument,
 * Record<string, unknown>), assigned from a read of protocol.json, or named
 * `protocol`.
 */
function cacheReaders(text: string): string[] {
  const code = codeOf(text, KEYS);
  const names = new Set(['protocol']);
  for (const m of code.matchAll(/\b(\w+)\??\s*:\s*(?:\w+\.)?(?:Json|JsonObject|ProtocolDocument|Record<string,\s*unknown>)\b/g)) names.add(m[1]!);
  for (const m of code.matchAll(/\b(?:const|let|var)\s+(\w+)\s*=\s*(?:await\s+)?[\w.]*read(?:Protocol|Json)\(/g)) names.add(m[1]!);
  const base = [...names].join('|');
  const reads = new RegExp(`\\bcurrentPhase\\b|\\[\\s*['"]waitingFor['"]\\s*\\]|['"]waitingFor['"]\\s+in\\b|\\b(?:${base})\\??\\.waitingFor\\b`);
  const lines = text.split('\n');
  return code
    .split('\n')
    .map((line, i) => ({ line, i }))
    .filter(({ line, i }) => reads.test(line) && !ALLOWED.lines.some((allowed) => lines[i]!.trim() === allowed))
    .map(({ i }) => `${i + 1}: ${lines[i]!.trim()}`);
}

/** The project's sources the rule covers: acp.ts, runtime/, plugins/, deliverable-types/ (runtime/turn.ts aside). */
function sources(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? walk(path) : entry.name.endsWith('.ts') ? [path] : [];
    });
  return ['acp.ts', ...walk('runtime'), ...walk('plugins'), ...walk('deliverable-types')].filter((file) => file !== ALLOWED.module);
}

describe('one reader of protocol.json\'s turn', () => {
  test('nothing outside runtime/turn.ts reads currentPhase or waitingFor from protocol.json', () => {
    const found = sources().flatMap((file) => cacheReaders(readFileSync(join(REPO, file), 'utf8')).map((line) => `${file}:${line}`));
    expect(found).toEqual([]);
  });

  test('a planted reader is found, a derived value or words are not (the test can fail)', () => {
    const planted = [
      "import type { Json } from '../runtime/util.ts';",
      'export async function planted(api: Api, folder: string, doc: Json, turn: Turn, state: DerivedState): Promise<unknown[]> {',
      '  const cache = await api.readProtocol(api.host, folder);',
      '  const { currentPhase } = doc;',
      "  const words = `protocol.json currentPhase is ${turn.phase}`; // protocol.waitingFor, in a comment",
      "  return [cache.waitingFor, doc?.waitingFor, doc['waitingFor'], 'waitingFor' in doc, state.waitingFor, turn.waitingFor, words, 'waitingFor: none'] as Pick<Turn, 'waitingFor'>[];",
      '}',
    ].join('\n');
    expect(cacheReaders(planted)).toEqual([
      '4: const { currentPhase } = doc;',
      "6: return [cache.waitingFor, doc?.waitingFor, doc['waitingFor'], 'waitingFor' in doc, state.waitingFor, turn.waitingFor, words, 'waitingFor: none'] as Pick<Turn, 'waitingFor'>[];",
    ]);
    // Each form alone.
    for (const read of ['cache.waitingFor', 'doc?.waitingFor', "doc['waitingFor']", "'waitingFor' in doc", "doc['currentPhase']", 'doc.currentPhase', 'protocol.waitingFor']) {
      expect(cacheReaders(planted.replace(/return \[.*;/, `return [${read}];`)), read).toHaveLength(2);
    }
    expect(cacheReaders(planted.replace(/return \[.*;/, "return [state.waitingFor, turn.waitingFor, words] as Pick<Turn, 'waitingFor'>[];"))).toHaveLength(1);
  });
});

// ------------------------------------------- the append checkpoint's share

describe('the turn of a short log is replayed, a long one read from the append checkpoint (issue 42)', () => {
  /**
   * A folder whose log holds `events` events: init, primary drafts written
   * as the Python tools would, the last one appended by acp (so its append
   * checkpoint describes the log). The host counts how often the
   * checkpoint's key is asked for: every read of the checkpoint
   * authenticates it with that key.
   */
  async function drafted(events: number): Promise<{ host: acp.Host; folder: string; keyReads: () => number }> {
    const root = tempRoot('acp-turn-checkpoint-');
    const folder = join(root, 'c');
    const registry = await acp.createRegistry();
    const node = await acp.createNodeHost({ checkpointKeyFile: join(root, 'checkpoint.key') });
    let reads = 0;
    const host: acp.Host = { ...node, checkpointKey: () => ((reads += 1), node.checkpointKey!()) };
    await acp.init(host, folder, { participants: [OWNER, REVIEWER], objective: 'o', completion: ['c'], primaryType: 'adr' }, registry);
    const at = readLog(folder)[0]!.at;
    const drafts = Array.from({ length: events - 2 }, (_, i) => acp.formatEventLine({ seq: i + 2, from: OWNER, event: 'deliverable_drafted', at, summary: 'draft', reply_to: 1, doc: 'deliverables/adr.md', role: 'primary' }));
    appendFileSync(join(folder, 'events.jsonl'), drafts.join(''));
    await acp.append(host, folder, { participant: OWNER, event: 'deliverable_drafted', summary: 'draft', replyTo: 1, role: 'primary', doc: 'deliverables/adr.md' }, registry);
    expect(existsSync(join(folder, acp.CHECKPOINT_NAME))).toBe(true);
    reads = 0;
    return { host, folder, keyReads: () => reads };
  }

  test('a short log: next replays it and never reads the checkpoint (its key and HMAC cost more than the replay)', async () => {
    const { host, folder, keyReads } = await drafted(5);
    const answer = await acp.nextAction(host, folder, REVIEWER);
    expect({ keyReads: keyReads(), waitingFor: answer.waitingFor, last: answer.lastEvent?.seq }).toEqual({ keyReads: 0, waitingFor: [OWNER], last: 5 });
  });

  test("a long log: the checkpoint is read, and its answer is the replay's", async () => {
    const { host, folder, keyReads } = await drafted(1100);
    const fromCheckpoint = await acp.nextAction(host, folder, REVIEWER);
    expect(keyReads()).toBeGreaterThan(0);
    rmSync(join(folder, acp.CHECKPOINT_NAME));
    expect(await acp.nextAction(host, folder, REVIEWER)).toEqual(fromCheckpoint);
    expect(fromCheckpoint.lastEvent?.seq).toBe(1100);
  });
});
