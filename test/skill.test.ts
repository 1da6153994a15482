// The agent-collaboration skill, as an agent gets it: installed by the
// `skills` CLI (from npm, a devDependency) into a fresh HOME, then a whole
// two-participant collaboration run with nothing but the commands and the
// document templates printed in the installed SKILL.md, placeholders filled
// in the way the skill tells an agent to fill them.
import { spawn, spawnSync } from 'node:child_process';
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

const VERSION: string = JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')).version;

/** `node <file> --version` */
const versionOf = (file: string): string => spawnSync(process.execPath, [file, '--version'], { encoding: 'utf8' }).stdout;

describe('the agent-collaboration skill', () => {
  test('scripts/ is one self-contained file, acp.mjs, of this version (npm run build:skill when the version changes)', () => {
    // The one generated file in git: nothing beside it (no chunks, no caches).
    const listed = spawnSync('git', ['ls-files', '--cached', `${SKILL}/scripts/`], { cwd: REPO_DIR, encoding: 'utf8' });
    // Outside a git checkout (an unpacked tarball) the files on disk are what ships.
    const files = listed.status === 0 && listed.stdout.trim() !== '' ? listed.stdout.trim().split('\n').map((path) => path.slice(`${SKILL}/scripts/`.length)) : readdirSync(join(REPO_DIR, SKILL, 'scripts'));
    expect(files).toEqual(['acp.mjs']);
    expect(versionOf(join(REPO_DIR, SKILL, 'scripts', 'acp.mjs')), `${SKILL}/scripts/acp.mjs is not version ${VERSION}: npm run build:skill`).toBe(`acp/${VERSION}\n`);
  });

  test('its MCP server is inside it: `acp.mjs mcp` answers initialize', async () => {
    const server = spawn(process.execPath, [join(REPO_DIR, SKILL, 'scripts', 'acp.mjs'), 'mcp', '--root', work], { stdio: ['pipe', 'pipe', 'pipe'] });
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'skill-test', version: '1' } } };
    server.stdin.write(`${JSON.stringify(initialize)}\n`);
    let stderr = '';
    server.stderr.setEncoding('utf8').on('data', (text: string) => void (stderr += text));
    const line = await new Promise<string>((resolve) => {
      let out = '';
      server.stdout.setEncoding('utf8').on('data', (text: string) => {
        out += text;
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
      server.on('close', () => resolve(out));
    });
    server.kill();
    expect(JSON.parse(line || '{}'), stderr).toMatchObject({ id: 1, result: { serverInfo: { name: 'acp', version: VERSION } } });
  });

  test('the skills CLI installs it with its front matter and runtime', () => {
    expect(install.rc, install.stderr + install.stdout).toBe(0);
    expect(readdirSync(join(skillDir, 'scripts'))).toEqual(['acp.mjs']);
    expect(versionOf(join(skillDir, 'scripts', 'acp.mjs'))).toBe(`acp/${VERSION}\n`);
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
      const matches = commands.filter((line) => (sub === 'sha256sum' ? line.startsWith('sha256sum ') : line.includes(`/scripts/acp.mjs ${sub} `)) && (event === undefined || line.includes(`--event ${event} `)));
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
