// The agent-collaboration skill, as an agent gets it: installed by the
// `skills` CLI (from npm, a devDependency) into a fresh HOME, then a whole
// two-participant collaboration run with nothing but the commands and the
// document templates printed in the installed SKILL.md, placeholders filled
// in the way the skill tells an agent to fill them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOCAL_BIN, REPO_DIR, runCommand, spawnUntil, type RunResult } from './conformance/replay.ts';

const SKILL = 'skills/agent-collaboration';
const OWNER = 'alice';
const REVIEWER = 'bob';
const PRIMARY = 'deliverables/design-spec.md';

/** A clean environment: no agent config dirs leaking in, no telemetry, no colour. */
function cleanEnv(home: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, USERPROFILE: home, NO_COLOR: '1', DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1' };
  for (const key of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'FORCE_COLOR']) delete env[key];
  return env;
}

/** Fenced blocks of one language, with the indentation of list items removed. */
function fenced(markdown: string, language: string): string[] {
  const blocks: string[] = [];
  for (const m of markdown.matchAll(new RegExp(`^( *)\`\`\`${language}\\n([\\s\\S]*?)^\\1\`\`\`$`, 'gm'))) {
    const indent = m[1]!.length;
    blocks.push(m[2]!.split('\n').map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length))).join('\n'));
  }
  return blocks;
}

/** Placeholders an agent fills from what it knows; any other `<…>` is prose the agent writes. */
function fill(text: string, values: Record<string, string>): string {
  let out = text;
  for (const [name, value] of Object.entries(values)) out = out.split(`<${name}>`).join(value);
  return out;
}

let home = '';
let skillDir = '';
let skill = '';
let work = '';
let install: RunResult;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'acp-skill-home-'));
  work = mkdtempSync(join(tmpdir(), 'acp-skill-work-'));
  // Exactly the documented install: npx skills add <repo> -g -y --agent claude-code.
  install = await runCommand(['npx', '--no-install', 'skills', 'add', REPO_DIR, '-g', '-y', '--agent', 'claude-code'], REPO_DIR, cleanEnv(home), 120_000);
  skillDir = join(home, '.claude', 'skills', 'agent-collaboration');
  if (existsSync(join(skillDir, 'SKILL.md'))) skill = readFileSync(join(skillDir, 'SKILL.md'), 'utf8');
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** The runtime's files in a dist/-shaped directory: the launchers, the core with its cache, the chunks. */
function runtimeFiles(dir: string): string[] {
  return ['acp.mjs', 'acp.cjs', 'acp-core.js', 'acp-core.js.cache', ...readdirSync(join(dir, 'chunks')).filter((n) => /\.(m?js|js\.cache)$/.test(n)).map((n) => `chunks/${n}`)].sort();
}

/**
 * Whether two copies of a runtime file are the same. V8 code caches differ
 * from build to build, so the build keeps a committed cache that still fits;
 * a cache made by another V8 (a build on another Node) is the same when its
 * copy of acp-core.js is (see scripts/start-path.mjs).
 */
function sameRuntimeFile(name: string, a: Buffer, b: Buffer): boolean {
  if (a.equals(b)) return true;
  if (!name.endsWith('.cache')) return false;
  const parts = (bytes: Buffer) => {
    const start = bytes.indexOf(10) + 1;
    const header = JSON.parse(bytes.subarray(0, start).toString()) as { v8: string; source: number };
    return { v8: header.v8, script: bytes.subarray(start, start + header.source) };
  };
  const [x, y] = [parts(a), parts(b)];
  return x.v8 !== y.v8 && x.script.equals(y.script);
}

describe('the agent-collaboration skill', () => {
  test('scripts/ as staged in git is dist/: the launchers, acp-core.js with its code cache, and the chunks (run `npm run build` and commit the copies when this fails)', () => {
    // Every file the launchers may read or import: the same names on both sides, each identical.
    const distFiles = runtimeFiles(join(REPO_DIR, 'dist'));
    const listed = spawnSync('git', ['ls-files', '--cached', `${SKILL}/scripts/`], { cwd: REPO_DIR, encoding: 'utf8' });
    // Outside a git checkout (an unpacked tarball) the files on disk are what ships.
    const inGit = listed.status === 0 && listed.stdout.trim() !== '';
    const skillFiles = inGit ? listed.stdout.trim().split('\n').map((path) => path.slice(`${SKILL}/scripts/`.length)).sort() : runtimeFiles(join(REPO_DIR, SKILL, 'scripts'));
    expect(skillFiles, `${SKILL}/scripts/ does not hold the files of dist/: npm run build, then git add -A ${SKILL}/scripts`).toEqual(distFiles);
    for (const name of distFiles) {
      const staged = inGit ? spawnSync('git', ['show', `:${SKILL}/scripts/${name}`], { cwd: REPO_DIR, maxBuffer: 64 * 1024 * 1024 }).stdout : readFileSync(join(REPO_DIR, SKILL, 'scripts', name));
      expect(sameRuntimeFile(name, staged, readFileSync(join(REPO_DIR, 'dist', name))), `${SKILL}/scripts/${name} is stale: npm run build, then git add it`).toBe(true);
    }
  });

  test('the skills CLI installs it with its front matter and runtime', () => {
    expect(install.rc, install.stderr + install.stdout).toBe(0);
    for (const name of runtimeFiles(join(REPO_DIR, 'dist'))) {
      expect(sameRuntimeFile(name, readFileSync(join(skillDir, 'scripts', name)), readFileSync(join(REPO_DIR, 'dist', name))), name).toBe(true);
    }
    const front = /^---\n([\s\S]*?)\n---\n/.exec(skill)?.[1] ?? '';
    expect(front).toMatch(/^name: agent-collaboration$/m);
    expect(front).toMatch(/^description: /m);
    expect(front).toContain('Use it when');
  });

  test('two participants complete a collaboration using only the installed SKILL.md', async () => {
    expect(skill, 'SKILL.md was not installed').not.toBe('');
    const folder = join(work, 'collab');
    const env = cleanEnv(home);
    const commands = fenced(skill, 'bash').flatMap((block) => block.split('\n')).filter((line) => line.trim() !== '');
    const templates = fenced(skill, 'markdown');
    /** The one documented command line for a subcommand (and event). */
    const command = (sub: string, event?: string): string => {
      const matches = commands.filter((line) => (sub === 'sha256sum' ? line.startsWith('sha256sum ') : line.includes(`/scripts/acp.cjs ${sub} `)) && (event === undefined || line.includes(`--event ${event} `)));
      const found = [...new Set(matches)];
      expect(found, `SKILL.md documents exactly one ${sub} ${event ?? ''} command`).toHaveLength(1);
      return found[0]!;
    };
    const template = (first: string): string => {
      const found = templates.filter((t) => t.trimStart().startsWith(first));
      expect(found, `SKILL.md has one template starting with ${first}`).toHaveLength(1);
      return found[0]!;
    };
    const values = (me: string, extra: Record<string, string> = {}): Record<string, string> => ({
      'skill-dir': skillDir, folder, me, other: REVIEWER, objective: 'Choose the storage layer', gate: 'Tradeoffs are documented', type: 'design-spec', primary: PRIMARY, ...extra,
    });
    const run = async (line: string, me: string, extra: Record<string, string> = {}): Promise<RunResult> => {
      const filled = fill(line, values(me, extra));
      expect(filled, 'every placeholder of a command is filled').not.toMatch(/<[a-z-]+>/);
      return runCommand(['bash', '-c', filled], work, env, 60_000);
    };
    const ok = async (line: string, me: string, extra: Record<string, string> = {}): Promise<string> => {
      const r = await run(line, me, extra);
      expect(r.rc, `${fill(line, values(me, extra))}\n${r.stderr}${r.stdout}`).toBe(0);
      return r.stdout;
    };
    /** wait, then next: the loop's first two steps; returns the latest seq and the next action. */
    const turn = async (me: string): Promise<{ seq: string; action: string }> => {
      expect(await ok(command('wait'), me)).toContain('ready: ');
      const next = await ok(command('next'), me);
      return { seq: /^last event: seq (\d+) /m.exec(next)![1]!, action: /^next action: (.*)$/m.exec(next)![1]! };
    };
    const append = async (me: string, event: string, extra: Record<string, string> = {}): Promise<void> => {
      const { seq } = await turn(me);
      expect(await ok(command('append', event), me, { 'latest-seq': seq, ...extra })).toMatch(new RegExp(`^appended seq ${Number(seq) + 1}: ${event}$`, 'm'));
    };
    const prose = (text: string): string => text.replace(/<[^>\n]+>/g, 'Settled between the participants');
    const write = (doc: string, text: string): void => writeFileSync(join(folder, doc), text);
    const read = (doc: string): string => readFileSync(join(folder, doc), 'utf8');

    // alice starts it.
    expect(await ok(command('init'), OWNER)).toBe(`Initialized ACP schema v2 collaboration folder: ${folder}\n`);
    expect((await turn(OWNER)).action).toMatch(/^draft the primary deliverable/);
    write(PRIMARY, read(PRIMARY).replace(/^(## .+)\n/gm, '$1\n\nThe proposed content of this section.\n'));
    await append(OWNER, 'deliverable_drafted');
    write('proposal.md', prose(fill(template('# Proposal'), values(OWNER))));
    // bob is already waiting (a real blocked `wait`) when alice hands over.
    const bobWaits = spawnUntil(env, ['bash', '-c', fill(command('wait'), values(REVIEWER))], work, 'waiting: ');
    await bobWaits.started;
    await append(OWNER, 'proposal_submitted');
    expect((await bobWaits.done).stdout).toContain('ready: bob is listed in waitingFor');

    // bob reviews.
    const review = await turn(REVIEWER);
    expect(review.action).toMatch(/^review proposal\.md/);
    const heading = { 'utc-time': new Date().toISOString().replace(/\.\d+Z$/, 'Z'), 'review-seq': String(Number(review.seq) + 1), 'latest-seq': review.seq };
    write('review.md', read('review.md') + prose(fill(template('## <utc-time>'), values(REVIEWER, heading))));
    await append(REVIEWER, 'review_submitted');

    // alice revises, records the decisions and classifies the questions.
    expect((await turn(OWNER)).action).toMatch(/^revise proposal\.md/);
    write(PRIMARY, read(PRIMARY).replace('The proposed content of this section.', 'The revised content of this section.'));
    await append(OWNER, 'deliverable_revised');
    await append(OWNER, 'proposal_revised');
    write('decisions.md', prose(fill(template('# Decisions'), values(OWNER))));
    const classification = prose(fill(template('## Open Question Classification'), values(OWNER)));
    write('readiness.md', read('readiness.md').replace(/## Open Question Classification\n\n- \[unresolved\][^\n]*\n/, classification));
    await append(OWNER, 'question_classified');
    await append(OWNER, 'decision_accepted');
    await append(REVIEWER, 'decision_accepted');

    // alice freezes, passes readiness and concludes.
    write(PRIMARY, read(PRIMARY).replace(/^Status: Draft$/m, 'Status: Frozen'));
    const sha256 = (await ok(command('sha256sum'), OWNER)).split(/\s+/)[0]!;
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    await append(OWNER, 'deliverable_frozen', { sha256 });
    write('readiness.md', read('readiness.md').replace(/^- SHA-256:.*$/m, `- SHA-256: ${sha256}`).replace(/^- \[ \] /gm, '- [x] '));
    expect(await ok(command('validate'), OWNER)).toBe('ACP validation passed\n');
    await append(OWNER, 'readiness_passed');
    write('conclusion.md', prose(fill(template('# Conclusion'), values(OWNER, { sha256 }))));
    expect(await ok(command('validate'), OWNER)).toBe('ACP validation passed\n');
    await append(OWNER, 'completed');

    // bob's loop ends too, and the folder is valid under every runtime the skill names.
    expect(await ok(command('wait'), REVIEWER)).toContain('ready: phase is completed');
    expect(await ok(command('next'), REVIEWER)).toContain('next action: stop; collaboration is complete.');
    const acp = join(skillDir, 'scripts', 'acp.mjs');
    for (const argv of [[join(LOCAL_BIN, 'bun'), acp], [join(LOCAL_BIN, 'deno'), 'run', '-A', acp]]) {
      const r = await runCommand([...argv, 'validate', '--folder', folder], work, env, 60_000);
      expect({ runtime: argv[0], rc: r.rc, out: r.stdout, err: r.stderr }).toEqual({ runtime: argv[0], rc: 0, out: 'ACP validation passed\n', err: '' });
    }
  });
});
