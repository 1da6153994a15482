// The agent-collaboration skill, as an agent gets it: installed by the
// `skills` CLI (from npm, a devDependency) into a fresh HOME, with its
// runtime, and every command of the installed SKILL.md naming that runtime.
// Agents following the SKILL.md to the end of collaborations (CLI and MCP):
// test/skill-agent.test.ts.
import { spawn, spawnSync } from 'node:child_process';
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
