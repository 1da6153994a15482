// The agents' own sandboxes (issue 41), for test/sandboxes.test.ts: Codex's
// (`codex sandbox`, Landlock + seccomp), Anthropic's sandbox runtime (`srt`,
// bubblewrap with a settings file) and bubblewrap alone with --unshare-all.
// The two npm packages are pinned in test/sandboxes/ (package.json and its
// lockfile) and installed with `npm ci` into the user's cache
// (test/tool-cache.ts) on first use, as test/node-versions.ts installs the Node versions: they are
// 400 MB that only this test needs. bubblewrap, socat and ripgrep are Debian's
// (.ci/run installs them). Each sandbox is tried once with `true`: one that
// cannot run here (no user namespaces, no Landlock) is skipped with what it
// said, except under test:all, where the matrix is required.
//
// The settings are not written here: they are read from the "In a sandbox"
// section of docs/agents.md (and SKILL.md, which must say the same), so that
// the matrix tests what the docs tell agents word for word.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPinned, toolCacheDir } from './tool-cache.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PINNED = join(REPO, 'test', 'sandboxes');
/** Where the pinned sandboxes are installed (and Codex's home: it refuses one under /tmp). */
export const SANDBOX_CACHE = toolCacheDir('sandboxes', readFileSync(join(PINNED, 'package-lock.json'), 'utf8'));
const BIN = join(SANDBOX_CACHE, 'node_modules', '.bin');

/** The sandboxes of the matrix. */
export const SANDBOX_NAMES = ['codex', 'srt', 'bwrap'] as const;
/** One of {@link SANDBOX_NAMES}. */
export type SandboxName = (typeof SANDBOX_NAMES)[number];

/** What the docs say a sandbox needs for acp (docs/agents.md, "In a sandbox"). */
export interface SandboxDocs {
  /** The environment lines (`NAME=value`, with PARENT and AGENT to fill in). */
  env: string[];
  /** Codex's command line up to and including `--`. */
  codex: string[];
  /** srt's settings file (JSON, with PARENT to fill in). */
  srt: string;
}

/** The fenced block after the line `marker` in `section`. */
function blockAfter(section: string, marker: string, file: string): string {
  const at = section.indexOf(marker);
  const block = at < 0 ? null : /```[a-z]*\n([\s\S]*?)```/.exec(section.slice(at));
  if (!block) throw new Error(`${file}: the "In a sandbox" section has no block after "${marker}"`);
  return block[1]!;
}

/** The "In a sandbox" section of `file` (a Markdown heading of any level, up to the next heading of that level or higher). */
export function sandboxSection(file: string): string {
  const text = readFileSync(join(REPO, file), 'utf8');
  const heading = /^(#+) In a sandbox$/m.exec(text);
  if (!heading) throw new Error(`${file} has no "In a sandbox" section`);
  const rest = text.slice(heading.index + heading[0].length);
  const end = new RegExp(`^#{1,${heading[1]!.length}} `, 'm').exec(rest);
  return rest.slice(0, end ? end.index : undefined);
}

/** Split a command line as sh does for words in plain or single quotes (all the docs use). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** The settings docs/agents.md gives agents, parsed. */
export function sandboxDocs(file = 'docs/agents.md'): SandboxDocs {
  const section = sandboxSection(file);
  const env = blockAfter(section, 'Environment:', file).split('\n').map((line) => line.trim().replace(/^export /, '').replace(/\s+#.*$/, '')).filter(Boolean);
  const codexLine = blockAfter(section, 'Codex (`@openai/codex`', file).trim();
  const words = shellWords(codexLine);
  return { env, codex: words.slice(0, words.indexOf('--') + 1), srt: blockAfter(section, 'srt (`@anthropic-ai/sandbox-runtime`', file) };
}

/** The environment the docs' lines give agent `agent` whose collaboration folder's parent is `parent`. */
export function documentedEnv(docs: SandboxDocs, parent: string, agent: string): Record<string, string> {
  return Object.fromEntries(docs.env.map((line) => {
    const eq = line.indexOf('=');
    return [line.slice(0, eq), line.slice(eq + 1).replace(/^"|"$/g, '').replaceAll('PARENT', parent).replaceAll('AGENT', agent)];
  }));
}

/** Install the pinned sandboxes unless installed as pinned; returns why they are not there (undefined when they are). */
export function installSandboxes(): string | undefined {
  if (process.platform !== 'linux') return `the sandboxes of the matrix are Linux's (this is ${process.platform})`;
  return installPinned({
    dir: SANDBOX_CACHE,
    packageJson: readFileSync(join(PINNED, 'package.json'), 'utf8'),
    lockfile: readFileSync(join(PINNED, 'package-lock.json'), 'utf8'),
    complete: (dir) => ['codex', 'srt'].every((bin) => existsSync(join(dir, 'node_modules', '.bin', bin))),
  });
}

let instances = 0;

/** A sandbox instance's command: run `argv` in sandbox `name` for an agent that may write `parent` only. */
export interface SandboxCommand {
  command: string;
  args: string[];
  cwd: string;
}

/** The home the sandboxed commands get: outside every writable root, so that writing it fails as in an agent's sandbox. */
export function sandboxHome(): string {
  const home = join(SANDBOX_CACHE, 'home');
  mkdirSync(home, { recursive: true });
  return home;
}

/**
 * The command that runs `argv` inside a fresh instance of sandbox `name`,
 * configured as `docs` says, for an agent that may write `parent` (its
 * working directory) and nothing else outside the sandbox's own scratch.
 */
export function sandboxed(name: SandboxName, docs: SandboxDocs, parent: string, argv: string[], cwd = parent): SandboxCommand {
  if (name === 'codex') return { command: join(BIN, 'codex'), args: [...docs.codex.slice(1).map((word) => word.replaceAll('PARENT', parent)), ...argv], cwd };
  if (name === 'srt') {
    // One file per instance, outside PARENT: concurrent instances never read one being written.
    const settings = join(parent, '..', `srt-settings-${++instances}.json`);
    writeFileSync(settings, docs.srt.replaceAll('PARENT', parent));
    return { command: join(BIN, 'srt'), args: ['-s', settings, '--', ...argv], cwd };
  }
  // The strictest case: new user, PID, mount, IPC, UTS, cgroup and network namespaces, the machine read-only, a private /tmp, the parent alone writable.
  const binds = ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--bind', parent, parent, '--chdir', cwd];
  return { command: 'bwrap', args: [...binds, '--', ...argv], cwd };
}

/** The environment every sandboxed command starts from: this one without acp's state settings, with a home it cannot write. */
export function sandboxBaseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !/^(ACP_|XDG_STATE_HOME$|NODE_OPTIONS$|VITEST)/.test(key)) env[key] = value;
  mkdirSync(join(SANDBOX_CACHE, 'codex-home'), { recursive: true });
  return { ...env, HOME: sandboxHome(), CODEX_HOME: join(SANDBOX_CACHE, 'codex-home') };
}

/** Why sandbox `name` cannot run here (undefined when it runs `true`): what is missing, or what it said when tried. */
export function sandboxProblem(name: SandboxName, docs: SandboxDocs, parent: string): string | undefined {
  const missing = (name === 'srt' ? ['bwrap', 'socat', 'rg'] : name === 'bwrap' ? ['bwrap'] : []).filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length) return `Debian's ${missing.map((tool) => ({ bwrap: 'bubblewrap', socat: 'socat', rg: 'ripgrep' })[tool]).join(', ')} not installed (.ci/run installs them: apt-get install -y bubblewrap socat ripgrep)`;
  const { command, args, cwd } = sandboxed(name, docs, parent, ['true']);
  const r = spawnSync(command, args, { cwd, env: sandboxBaseEnv(), encoding: 'utf8', timeout: 60_000 });
  if (r.status === 0) return undefined;
  const said = (r.error?.message ?? `${r.stderr}${r.stdout}`).trim().split('\n').filter((line) => !/^WARNING: proceeding/.test(line)).slice(0, 3).join(' | ');
  return `${name} cannot run \`true\` here (exit ${r.status ?? r.signal}): ${said || 'it said nothing'}`;
}
