// Every shell block shown in README.md and docs/*.md is run by a test.
//
// A fenced ```sh (or bash/shell) block is run here, as a bash script with
// `set -euo pipefail`, in a fresh directory that looks like a checkout (the
// repo's sources, dist/ and node_modules/ linked in), with `acp` and
// `acp-collab` on the PATH (both `node dist/acp.mjs`) and node_modules/.bin
// (bun, deno) after them. The block must exit 0 — a command that is meant to
// fail is shown as `cmd || echo "exit $?"` — and each `#> text` line is
// output the block must print: the `#>` lines must match output lines in
// order (stdout and stderr together), `…` matching anything.
//
// The blocks that cannot run here (they need a server, the network, minutes
// of CPU, or a file they set up in prose) are listed in COVERED with what
// runs them instead; a listed block that no longer exists fails too.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHELLS = new Set(['sh', 'bash', 'shell']);
/** What a checkout holds that a shown command may use. */
const CHECKOUT = ['acp.ts', 'runtime', 'dist', 'node_modules', 'deliverable-types', 'plugins', 'scripts', 'test', 'package.json', 'tsconfig.json'];

/**
 * Blocks run elsewhere, by the first line of the block. `by` names the files
 * that run them; a test file that extracts the block from the page must
 * mention the page (checked below).
 */
const COVERED: { page: string; first: string; by: string[]; extracts?: boolean; why: string }[] = [
  // README "Install": npm ci and a global install change the machine; CI
  // runs npm ci and the build on a clean checkout, the package test packs
  // the tarball, installs it offline into an empty directory and runs both
  // bins, and every other test runs node dist/acp.mjs.
  { page: 'README.md', first: '# from a checkout (Node >= 20.19)', by: ['test/package.test.ts', 'test/cli.test.ts'], why: 'builds dist/acp.mjs, packs and installs the tarball offline, runs both bins' },
  // docs/agents.md: the skills CLI installs into a HOME.
  { page: 'docs/agents.md', first: 'npx skills add', by: ['test/skill.test.ts'], why: 'runs skills add into a fresh HOME, then a collaboration from SKILL.md' },
  // README "Quick start": exactly what CI runs on a clean checkout.
  { page: 'README.md', first: 'npm ci && npm start', by: ['.ci/run'], why: 'CI runs npm ci, npm start and npm test on a clean checkout' },
  // README "Contributing": npm test and npm run test:all are run by CI;
  // npm run bench is a measurement (minutes of CPU), run by hand only.
  { page: 'README.md', first: 'npm test', by: ['.ci/run'], why: 'CI runs the test scripts; the benchmark is run by hand' },
  // docs/git.md: needs a bare repository and clones; the git test builds them and runs init/append/wait --git.
  { page: 'docs/git.md', first: "printf 'git:\\n  remote: origin\\n'", by: ['test/git.test.ts'], why: 'a bare repository and clones: init --git, append --git racing, wait --git handoff' },
  // docs/plugins.md: the Deno permissions for a plugin file.
  { page: 'docs/plugins.md', first: 'deno run --no-prompt --allow-read=$PWD', by: ['test/plugins-runtimes.test.ts'], why: 'plugins under Deno with read access to the plugin folder only' },
  // docs/plugins.md "Write a plugin": the example's commands, after writing the file the page shows.
  { page: 'docs/plugins.md', first: 'acp init --plugin ./threat-model.mjs', by: ['test/plugins.test.ts'], extracts: true, why: 'writes threat-model.mjs from the page and runs these commands' },
  // docs/rpc.md: the session needs a TCP server and runs in the background.
  { page: 'docs/rpc.md', first: 'mkdir -p collabs alice', by: ['test/rpc-session.test.ts'], extracts: true, why: 'runs the block verbatim on a free port' },
  // docs/rpc.md "Runtimes": Deno server and clients need a running server.
  { page: 'docs/rpc.md', first: '# the server: with --config', by: ['test/rpc-cli.test.ts', 'test/rpc-client-runtimes.test.ts'], why: 'serve, rpc and wait --server under Deno with these permissions' },
  // docs/humans.md "The dashboard": a server that runs until Ctrl-C.
  { page: 'docs/humans.md', first: 'acp dashboard --root', by: ['test/humans-dashboard.test.ts', 'test/humans-dashboard-runtimes.test.ts'], why: 'started, fetched, driven in a browser and stopped; under Deno with these permissions' },
  // docs/spec-notes.md: the full replays take minutes.
  { page: 'docs/spec-notes.md', first: 'node_modules/.bin/bun test/conformance/replay-cli.ts', by: ['test/conformance.test.ts'], why: 'replays every scenario with the same harness' },
];

interface Block {
  page: string;
  line: number;
  lang: string;
  code: string;
}

/** The fenced code blocks of a Markdown page (indented fences too, as inside list items). */
function codeBlocks(page: string): Block[] {
  const lines = readFileSync(join(REPO, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,})(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.startsWith(`${indent}${fence}`); j++) body.push(lines[j]!.slice(indent!.length));
    blocks.push({ page, line: i + 1, lang: lang!, code: body.join('\n') });
    i = j;
  }
  return blocks;
}

function pages(): string[] {
  const docs = readdirSync(join(REPO, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

const firstLine = (block: Block): string => block.code.split('\n').find((line) => line.trim() !== '')!.trim();
const shellBlocks = pages().flatMap(codeBlocks).filter((block) => SHELLS.has(block.lang));
const coverOf = (block: Block) => COVERED.find((c) => c.page === block.page && firstLine(block).startsWith(c.first));
const runnable = shellBlocks.filter((block) => !coverOf(block));

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory that looks like a checkout, and a bin directory with `acp` and `acp-collab`. */
function workspace(): { cwd: string; bin: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), 'acp-docs-'));
  dirs.push(root);
  const cwd = join(root, 'work');
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  for (const dir of [cwd, bin, home]) mkdirSync(dir);
  for (const name of CHECKOUT) symlinkSync(join(REPO, name), join(cwd, name));
  for (const name of ['acp', 'acp-collab']) {
    writeFileSync(join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${join(REPO, 'dist', 'acp.mjs')}" "$@"\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return { cwd, bin, home };
}

function run(block: Block): { status: number | null; output: string } {
  const { cwd, bin, home } = workspace();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('ACP_')) env[key] = value;
  env.PATH = [bin, join(REPO, 'node_modules', '.bin'), process.env.PATH].join(':');
  env.HOME = home;
  const script = `exec 2>&1\nset -euo pipefail\n${block.code}\n`;
  const result = spawnSync('bash', ['-c', script], { cwd, env, encoding: 'utf8', timeout: 240_000, killSignal: 'SIGKILL' });
  return { status: result.status, output: result.stdout };
}

/** `#>` lines of a block, as patterns: exact text, `…` matches anything. */
function expectedOutput(code: string): RegExp[] {
  return [...code.matchAll(/^#> (.*)$/gm)].map((m) => new RegExp(`^${m[1]!.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`));
}

/** The output lines matched in order by the patterns, or the first pattern that matched nothing after the previous one. */
function unmatched(output: string, patterns: RegExp[]): string | undefined {
  const lines = output.split('\n');
  let at = 0;
  for (const pattern of patterns) {
    while (at < lines.length && !pattern.test(lines[at]!)) at++;
    if (at === lines.length) return pattern.source;
    at++;
  }
  return undefined;
}

describe('the shell blocks of README.md and docs/', () => {
  test('every shell block is run here or listed in COVERED with the files that run it', () => {
    expect(shellBlocks.length).toBeGreaterThan(0);
    for (const cover of COVERED) {
      const blocks = shellBlocks.filter((block) => block.page === cover.page && firstLine(block).startsWith(cover.first));
      expect(blocks.length, `COVERED ${cover.page}: one block starting with ${cover.first}`).toBe(1);
      for (const file of cover.by) {
        expect(existsSync(join(REPO, file)), `${file} exists`).toBe(true);
        // Those files read the page as join(repo, 'docs', 'name.md').
        if (cover.extracts) expect(readFileSync(join(REPO, file), 'utf8'), `${file} reads ${cover.page}`).toContain(`'docs', '${cover.page.slice('docs/'.length)}'`);
      }
    }
  });

  test('CI runs the Quick start and the test commands exactly as shown', () => {
    const ci = readFileSync(join(REPO, '.ci', 'run'), 'utf8').split('\n').map((line) => line.trim());
    const shown = shellBlocks
      .filter((block) => coverOf(block)?.by.includes('.ci/run'))
      .flatMap((block) => block.code.split('\n'))
      .map((line) => line.replace(/#.*$/, '').trim())
      .flatMap((line) => line.split('&&').map((command) => command.trim()))
      .filter((command) => command !== '' && command !== 'npm run bench');
    expect(shown.length).toBeGreaterThan(0);
    for (const command of shown) expect(ci, `.ci/run runs ${command}`).toContain(command);
    const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.bench, 'npm run bench exists').toBeDefined();
  });

  test.each(runnable.map((block) => [`${block.page}:${block.line}`, block] as const))('%s runs as shown', (_, block) => {
    const { status, output } = run(block);
    expect(status, output).toBe(0);
    expect(unmatched(output, expectedOutput(block.code)), output).toBeUndefined();
  });
});
