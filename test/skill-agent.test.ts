// Issue 26: agents that follow SKILL.md literally never stall and are never
// refused. A scripted agent (test/skill/interpreter.ts) reads the skill's
// loop and phase sections and does each numbered step as written; two of
// them run concurrently, one per participant, each in its own loop
// (`wait` → the steps of its phase → `wait` again), until the collaboration
// is completed — for three deliverable types, through the CLI in strict
// mode (every command the skill shows, run as shown), and through two MCP
// clients that use only the skill's MCP server (each command translated into
// the tool of the same name). Every command and tool call must succeed: a
// single refusal fails the test. The runtime is named in one place
// (test/skill/runtime.ts); commands run without a network (`unshare -n`)
// where the machine allows it.
//
// Run size (test/scale.ts): `npm test` completes one collaboration per door,
// the `custom` type (the one whose init takes the skill's extra flags, on
// the CLI and as MCP arguments), plus the blocked one; ACP_FULL=1 all three
// types on both doors. The types differ only in their deliverable's
// template: the skill's steps are the same.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCommand, type RunResult } from './conformance/replay.ts';
import { fill, parseCommand, parseSkill, prose, readTurn, sectionFor, type Skill, type SkillSection, type SkillStep } from './skill/interpreter.ts';
import { atLeast } from './scale.ts';
import { offlinePrefix, SKILL_RUNTIME, SKILL_RUNTIME_WORDS, skillText, withRuntime } from './skill/runtime.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const OFFLINE = offlinePrefix();
const TYPES = [
  { type: 'design-spec', extra: {} },
  { type: 'adr', extra: {} },
  { type: 'custom', extra: { name: 'notes', sections: ['Context', 'Outcome'] } },
] as const;
/** The types each door completes in this run. */
const typesOfRun = (): (typeof TYPES)[number][] => TYPES.filter((kind) => atLeast('full') || kind.type === 'custom');

let work = '';
let skill: Skill;
beforeAll(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'acp-skill-agent-')));
  skill = parseSkill(skillText());
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What an agent's commands reach: the CLI through a shell, or an MCP client. */
interface Backend {
  run(line: string): Promise<RunResult>;
  read(doc: string): Promise<string>;
  write(doc: string, text: string): Promise<void>;
  /** Commands the backend has no way to run (MCP: `report`, a file the CLI writes). */
  lacks?(line: string): boolean;
}

/** Every command an agent ran: the template line, and how it ended. */
interface Record_ {
  template: string;
  line: string;
  rc: number;
  out: string;
}

interface Agent {
  me: string;
  backend: Backend;
  values: Record<string, string>;
  ran: Record_[];
}

/** One scripted CLI collaboration: how both loops ended, every command they ran, and validate's output (strict, then plain) when it completed. */
interface CliRun {
  folder: string;
  outcomes: string[];
  ran: Record_[];
  validated: string[];
}

const timeNow = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** Run one of the skill's command lines with the agent's values; every command must succeed (wait may time out: exit 1). */
async function run(agent: Agent, template: string): Promise<RunResult> {
  const line = fill(template, agent.values);
  // <skill-dir>/scripts/acp.mjs is the runtime: test/skill/runtime.ts says which file that is.
  expect(line.split('<skill-dir>/scripts/acp.mjs').join(''), 'every placeholder of a command is filled').not.toMatch(/<[a-z-]+>/);
  if (agent.backend.lacks?.(line)) return { rc: 0, stdout: '', stderr: '' };
  const r = await agent.backend.run(line);
  agent.ran.push({ template, line, rc: r.rc, out: r.stdout + r.stderr });
  const isWait = / wait /.test(line);
  expect(r.rc === 0 || (isWait && r.rc === 1), `refused or failed: ${line}\n${r.stderr}${r.stdout}`).toBe(true);
  const appended = /^appended seq (\d+): /m.exec(r.stdout);
  if (appended) agent.values['latest-seq'] = appended[1]!;
  const sha = /sha256:? ([0-9a-f]{64})/.exec(r.stdout);
  if (sha) agent.values.sha256 = sha[1]!;
  return r;
}

/** Do one numbered step as SKILL.md words it; a step this agent cannot read fails the test. */
async function doStep(agent: Agent, section: SkillSection, step: SkillStep): Promise<'stop' | void> {
  const text = step.text;
  const doc = (/^(?:Write|Edit) `<folder>\/([^`]+)`/.exec(text) ?? [])[1];
  if (step.bash.length) {
    for (const block of step.bash) for (const line of block.split('\n').filter(Boolean)) await run(agent, line);
    return;
  }
  if (/^Write `<folder>\/[^`]+` \(replace all of it\)/.test(text) && step.markdown.length === 1) {
    return agent.backend.write(fill(doc!, agent.values), prose(fill(step.markdown[0]!, agent.values)));
  }
  if (/^Add your review to the end of `<folder>\/review\.md`/.test(text) && step.markdown.length === 1) {
    agent.values['review-seq'] = String(Number(agent.values['latest-seq']) + 1);
    agent.values['utc-time'] = timeNow();
    return agent.backend.write('review.md', (await agent.backend.read('review.md')) + prose(fill(step.markdown[0]!, agent.values)));
  }
  if (/^Edit `<folder>\/readiness\.md`: replace the `\[unresolved\]` item/.test(text) && step.markdown.length === 1) {
    const block = prose(fill(step.markdown[0]!, agent.values));
    const readiness = await agent.backend.read('readiness.md');
    const replaced = readiness.replace(/## Open Question Classification\n\n(- \[unresolved\][^\n]*\n)+/, `${block}\n`);
    expect(replaced, 'readiness.md had its [unresolved] item').not.toBe(readiness);
    return agent.backend.write('readiness.md', replaced);
  }
  if (/^Edit `<folder>\/<primary>`: under every `## ` heading write the real content/.test(text)) {
    const primary = await agent.backend.read(agent.values.primary!);
    return agent.backend.write(agent.values.primary!, primary.replace(/^(## .+)\n(\s*\n)*/gm, (_, heading: string) => `${heading}\n\nWhat ${agent.me} proposes for ${heading.slice(3)}.\n\n`));
  }
  if (/^Edit `<folder>\/<primary>` and `<folder>\/proposal\.md`: make every change/.test(text)) {
    const primary = await agent.backend.read(agent.values.primary!);
    return agent.backend.write(agent.values.primary!, primary.replace(/^(## .+\n\n)/m, '$1Revised after the review. '));
  }
  if (/^Edit `<folder>\/readiness\.md`: make each gate under `## Gates` true and check it/.test(text)) {
    return agent.backend.write('readiness.md', (await agent.backend.read('readiness.md')).replace(/^- \[ \] /gm, '- [x] '));
  }
  if (/^Read /.test(text)) {
    for (const m of text.matchAll(/`<folder>\/([^`]+)`/g)) expect(await agent.backend.read(fill(m[1]!, agent.values))).not.toBe('');
    return;
  }
  if (/^Accept them yourself: do the next section\./.test(text)) {
    return doSection(agent, skill.phases[skill.phases.indexOf(section) + 1]!);
  }
  if (/^Stop\./.test(text)) return 'stop';
  throw new Error(`the scripted agent cannot read step ${step.number} of "${section.heading}": ${text}`);
}

async function doSection(agent: Agent, section: SkillSection): Promise<'stop' | void> {
  for (const step of section.steps) if ((await doStep(agent, section, step)) === 'stop') return 'stop';
}

/** The loop, as its numbered steps say: wait (again on exit 1), stop at completed/blocked, do the phase, wait again at once. */
async function loop(agent: Agent): Promise<string> {
  const [waitStep, stopStep, doStep3, again] = skill.loop;
  expect(waitStep!.text).toMatch(/^Wait for your turn/);
  expect(stopStep!.text).toMatch(/^If the phase is `completed` or `blocked`, stop/);
  expect(doStep3!.text).toMatch(/^Do every step of the section below for your phase and role/);
  expect(again!.text).toMatch(/^Go back to step 1 immediately/);
  const waitLine = waitStep!.bash[0]!;
  for (let turns = 0; turns < 100; turns++) {
    let r = await run(agent, waitLine);
    while (r.rc === 1) r = await run(agent, waitLine);
    const turn = readTurn(r.stdout);
    agent.values['latest-seq'] = String(turn.lastSeq);
    if (turn.phase === 'completed' || turn.phase === 'blocked') {
      // Telling the user where things stand.
      for (const line of skill.commands.filter((l) => / (status|report) /.test(l))) await run(agent, line);
      return turn.phase;
    }
    await doSection(agent, sectionFor(skill, turn, agent.me));
  }
  throw new Error(`${agent.me} took 100 turns without the collaboration ending`);
}

/** Start a collaboration with the skill's init line (a custom type adds the two flags the skill names for it). */
async function start(agent: Agent, kind: (typeof TYPES)[number]): Promise<void> {
  let line = skill.commands.find((l) => / init /.test(l))!;
  if (kind.type === 'custom') {
    const file = /`(--primary-deliverable-file <name>\.md)`/.exec(skill.customInit)![1]!.replace('<name>', kind.extra.name);
    const check = /`(--primary-deliverable-check "<section>")`/.exec(skill.customInit)![1]!;
    line = `${line} ${file} ${kind.extra.sections.map((s) => check.replace('<section>', s)).join(' ')}`;
  }
  await run(agent, line);
  agent.values.primary = /^Primary deliverable: `([^`]+)`$/m.exec(await agent.backend.read('proposal.md'))![1]!;
}

function cliBackend(folder: string): Backend {
  const path = (doc: string): string => join(folder, doc);
  return {
    run: (line) => runCommand([...OFFLINE.prefix, 'bash', '-c', withRuntime(line)], work, { ...process.env, NO_COLOR: '1' }, 180_000),
    read: async (doc) => readFileSync(path(doc), 'utf8'),
    write: async (doc, text) => writeFileSync(path(doc), text),
  };
}

/** An MCP client on its own `acp mcp` server (the skill's runtime), off the network where the machine allows. */
async function mcpBackend(name: string, folder: string): Promise<{ backend: Backend; client: Client }> {
  const [command, ...prefix] = [...OFFLINE.prefix, process.execPath];
  const transport = new StdioClientTransport({ command: command!, args: [...prefix, SKILL_RUNTIME, 'mcp', '--root', work], cwd: work, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  const call = async (tool: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> => {
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 180_000, resetTimeoutOnProgress: true })) as CallToolResult;
    return { text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), isError: result.isError === true };
  };
  const one = (flags: Record<string, (string | true)[]>, name: string): string | undefined => flags[name]?.[0] as string | undefined;
  const backend: Backend = {
    lacks: (line) => / report /.test(line),
    async run(line) {
      const { words, flags } = parseCommand(line);
      const command = words[words.indexOf('<skill-dir>/scripts/acp.mjs') + 1]!;
      const base = { folder: one(flags, 'folder') };
      let args: Record<string, unknown>;
      if (command === 'wait') args = { ...base, participant: one(flags, 'participant'), timeout_seconds: Number(one(flags, 'timeout')) };
      else if (command === 'append') {
        const replyTo = one(flags, 'reply-to');
        args = { ...base, participant: one(flags, 'participant'), event: one(flags, 'event'), summary: one(flags, 'summary'), doc: one(flags, 'doc'), role: one(flags, 'role'), sha256: one(flags, 'sha256'), reply_to: replyTo === undefined ? undefined : Number(replyTo) };
      } else if (command === 'freeze') args = { ...base, participant: one(flags, 'participant') };
      else if (command === 'init') {
        args = { ...base, participants: flags.participant, objective: one(flags, 'objective'), completion: flags.completion, primary_deliverable_type: one(flags, 'primary-deliverable-type'), primary_deliverable_file: one(flags, 'primary-deliverable-file'), primary_deliverable_checks: flags['primary-deliverable-check'] };
      } else args = base;
      const r = await call(command, Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)));
      return { rc: r.isError ? (r.text.startsWith('timeout:') ? 1 : 2) : 0, stdout: `${r.text}\n`, stderr: '' };
    },
    read: async (doc) => {
      const r = await call('read_document', { folder, doc });
      expect(r.isError, r.text).toBe(false);
      return r.text;
    },
    write: async (doc, content) => {
      const r = await call('write_document', { folder, doc, content });
      expect(r.isError, r.text).toBe(false);
    },
  };
  return { backend, client };
}

function values(me: string, other: string, folder: string, type: string): Record<string, string> {
  return { folder, me, other, objective: `Choose how to ship the ${type}`, gate: 'Tradeoffs are documented', type };
}

describe(`a scripted agent following SKILL.md (runtime ${SKILL_RUNTIME_WORDS} → ${SKILL_RUNTIME}; ${OFFLINE.offline ? 'offline: unshare -n' : 'network not cut: unshare is not available here'})`, () => {
  // Each CLI collaboration runs once, when the first test that needs it asks:
  // the coverage test below asks for all of them, so it holds on its own
  // (run alone with -t it drives them itself; in a full run it reuses them).
  const runs = new Map<string, Promise<CliRun>>();
  const once = (key: string, make: () => Promise<CliRun>): Promise<CliRun> => {
    if (!runs.has(key)) runs.set(key, make());
    return runs.get(key)!;
  };
  const completedRun = (kind: ReturnType<typeof typesOfRun>[number]) =>
    once(kind.type, async () => {
      const folder = join(work, `cli-${kind.type}`);
      const alice: Agent = { me: 'alice', backend: cliBackend(folder), values: values('alice', 'bob', folder, kind.type), ran: [] };
      await start(alice, kind);
      const bob: Agent = { me: 'bob', backend: cliBackend(folder), values: { ...values('bob', 'alice', folder, kind.type), primary: alice.values.primary! }, ran: [] };
      const outcomes = await Promise.all([loop(alice), loop(bob)]);
      // The folder passes validate, strict (as the skill shows it) and plain.
      const strict = await run(alice, skill.commands.find((l) => / validate /.test(l))!);
      const plain = await runCommand([process.execPath, SKILL_RUNTIME, 'validate', '--folder', folder], work, process.env, 60_000);
      return { folder, outcomes, ran: [...alice.ran, ...bob.ran], validated: [strict.stdout, plain.stdout] };
    });
  const blockedRun = () =>
    once('blocked', async () => {
      const folder = join(work, 'cli-blocked');
      const alice: Agent = { me: 'alice', backend: cliBackend(folder), values: values('alice', 'bob', folder, 'decision-memo'), ran: [] };
      await start(alice, { type: 'decision-memo', extra: {} } as never);
      const bob: Agent = { me: 'bob', backend: cliBackend(folder), values: { ...values('bob', 'alice', folder, 'decision-memo'), primary: alice.values.primary!, why: 'the proposal ignores the budget' }, ran: [] };
      const blockLine = skill.commands.find((l) => /--event blocked /.test(l))!;
      // bob's loop: wait, then block (the skill's "Blocking" command) instead of reviewing.
      const bobLoop = (async () => {
        let r = await run(bob, skill.loop[0]!.bash[0]!);
        while (r.rc === 1) r = await run(bob, skill.loop[0]!.bash[0]!);
        bob.values['latest-seq'] = String(readTurn(r.stdout).lastSeq);
        await run(bob, blockLine.replace('<why the collaboration cannot continue>', '<why>'));
        return loop(bob);
      })();
      const outcomes = await Promise.all([loop(alice), bobLoop]);
      return { folder, outcomes, ran: [...alice.ran, ...bob.ran], validated: [] };
    });

  for (const kind of typesOfRun()) {
    test(`CLI, strict: two participants complete a ${kind.type} collaboration without a refused command`, { timeout: 600_000 }, async () => {
      const r = await completedRun(kind);
      expect(r.outcomes).toEqual(['completed', 'completed']);
      expect(r.validated).toEqual(['ACP validation passed\n', 'ACP validation passed\n']);
      expect(readFileSync(join(r.folder, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
      // Every append was strict.
      expect(r.ran.filter((x) => / append /.test(x.line)).every((x) => x.line.includes(' --strict '))).toBe(true);
    });
  }

  test('CLI: a reviewer who cannot accept blocks, and both loops end', { timeout: 600_000 }, async () => {
    expect((await blockedRun()).outcomes).toEqual(['blocked', 'blocked']);
  });

  test('every command SKILL.md shows was run by the scripted agents, as shown', { timeout: 900_000 }, async () => {
    const all = await Promise.all([...typesOfRun().map(completedRun), blockedRun()]);
    const ranByCli = all.flatMap((r) => r.ran);
    const templates = new Set(ranByCli.map((r) => r.template.replace('<why>', '<why the collaboration cannot continue>')));
    const missing = skill.allCommands.filter((line) => line.includes(SKILL_RUNTIME_WORDS) && !templates.has(line));
    expect(missing).toEqual([]);
    expect(ranByCli.filter((r) => r.rc === 2)).toEqual([]);
  });

  for (const kind of typesOfRun()) {
    test(`MCP only: two clients on the skill's MCP server complete a ${kind.type} collaboration without a refused call`, { timeout: 600_000 }, async () => {
      const folder = `mcp-${kind.type}`;
      const a = await mcpBackend('alice-agent', folder);
      const b = await mcpBackend('bob-agent', folder);
      try {
        const alice: Agent = { me: 'alice', backend: a.backend, values: values('alice', 'bob', folder, kind.type), ran: [] };
        await start(alice, kind);
        const bob: Agent = { me: 'bob', backend: b.backend, values: { ...values('bob', 'alice', folder, kind.type), primary: alice.values.primary! }, ran: [] };
        expect(await Promise.all([loop(alice), loop(bob)])).toEqual(['completed', 'completed']);
        expect(alice.ran.concat(bob.ran).filter((r) => r.rc === 2)).toEqual([]);
        const validated = await a.backend.run(skill.commands.find((l) => / validate /.test(l))!.split('<folder>').join(folder));
        expect(validated.stdout).toBe('ACP validation passed\n');
      } finally {
        await a.client.close();
        await b.client.close();
      }
    });
  }
});
