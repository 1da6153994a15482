// The agent-collaboration skill, as an agent gets it: installed by the
// `skills` CLI (from npm, a devDependency) into a fresh HOME, with its
// runtime, and every command of the installed SKILL.md naming that runtime.
// Agents following the SKILL.md to the end of collaborations (CLI and MCP):
// test/skill-agent.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOCAL_BIN, REPO_DIR, runCommand, type RunResult } from './conformance/replay.ts';

const SKILL = 'skills/agent-collaboration';

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

  test('the installed SKILL.md is the committed one, and the runtime it names runs under every runtime it names', async () => {
    // The collaboration an agent runs from SKILL.md is test/skill-agent.test.ts (a scripted agent that follows its steps, CLI and MCP).
    expect(skill, 'SKILL.md was not installed').toBe(readFileSync(join(REPO_DIR, SKILL, 'SKILL.md'), 'utf8'));
    const commands = fenced(skill, 'bash').flatMap((block) => block.split('\n')).filter((line) => line.trim() !== '');
    expect(commands.length).toBeGreaterThan(10);
    for (const line of commands) expect(line).toMatch(/^node <skill-dir>\/scripts\/acp\.mjs /);
    const acp = join(skillDir, 'scripts', 'acp.mjs');
    const env = cleanEnv(home);
    for (const argv of [[process.execPath, acp], [join(LOCAL_BIN, 'bun'), acp], [join(LOCAL_BIN, 'deno'), 'run', '-A', acp]]) {
      const r = await runCommand([...argv, 'plugins'], work, env, 60_000);
      expect({ runtime: argv[0], rc: r.rc, err: r.stderr }).toEqual({ runtime: argv[0], rc: 0, err: '' });
      expect(r.stdout).toContain('design-spec');
    }
  });
});
