// The plugin system in-process (runCli with a host whose working directory is
// a temp dir): loading from --plugin and acp.config.yaml, the refusal to load
// code from a collaboration folder, hook order and failures (a veto writes
// nothing, byte for byte), interoperable custom types, the two plugins of
// plugins/, `acp types`, and the "Write a plugin" example of docs/plugins.md.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  type AcpPlugin,
  type AfterAppendContext,
  type DeliverableType,
  type Findings,
  type RuntimeFacts,
  append,
  createNodeHost,
  createRegistry,
  defineDeliverableType,
  definePlugin,
  init,
  markdown,
  pluginContext,
  runCli,
  validate,
} from '../acp.ts';
import notifyTurn, { dueNotifications, notificationArgv, parseNotifyTurnOptions } from '../plugins/notify-turn.ts';
import rfcPlugin, { RFC_SECTIONS } from '../plugins/rfc.ts';
import { type RunResult, postmortemText, primaryOf, rfcText, runFlow } from './plugins/flow.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const REPO = resolve(import.meta.dirname, '..');
const FIXTURES = join(REPO, 'test', 'plugins', 'fixtures');
const POSTMORTEM = join(FIXTURES, 'postmortem.mjs');
const dirs: string[] = [];

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-plugins-')));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `acp <args>` in this process, with `cwd` as the working directory. */
async function cli(args: string[], cwd: string, runtime?: RuntimeFacts): Promise<RunResult> {
  const base = await createNodeHost();
  const host = { ...base, resolvePath: (path: string) => resolve(cwd, path) };
  let stdout = '';
  let stderr = '';
  const code = await runCli({ argv: args, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false, runtime }, host);
  return { code, stdout, stderr };
}

const INIT = ['--participant', 'alice', '--participant', 'bob', '--objective', 'Learn from the outage', '--completion', 'Lessons recorded'];

/** Every file under `dir` with its SHA-256 (to prove nothing was written). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`);
      else out[`${prefix}${entry.name}`] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir, '');
  return out;
}

async function initFolder(root: string, type = 'postmortem', plugins = ['--plugin', POSTMORTEM]): Promise<string> {
  const folder = join(root, 'collab');
  const r = await cli(['init', '--folder', folder, ...INIT, '--primary-deliverable-type', type, ...plugins], root);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return folder;
}

describe('loading plugins', () => {
  test('--plugin loads a file; acp types says where every type and plugin came from', async () => {
    const root = tempDir();
    const r = await cli(['types', '--json', '--plugin', POSTMORTEM], root);
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout);
    expect(listed.types.find((t: { type: string }) => t.type === 'adr')).toEqual({
      type: 'adr',
      title: 'Architecture Decision Record',
      origin: 'built-in',
      source: 'deliverable-types/adr.ts',
      recordedAs: 'adr',
    });
    expect(listed.types.at(-1)).toEqual({
      type: 'postmortem',
      title: 'Post-mortem',
      origin: 'plugin',
      source: POSTMORTEM,
      plugin: 'postmortem',
      via: '--plugin',
      recordedAs: 'custom',
    });
    expect(listed.plugins).toEqual([{ name: 'postmortem', source: POSTMORTEM, via: '--plugin', enforce: 'normal', hooks: ['next'], types: ['postmortem'], commands: [] }]);
    const text = await cli(['types', '--plugin', POSTMORTEM], root);
    expect(text.stdout).toContain(`  postmortem           Post-mortem                    plugin 'postmortem': ${POSTMORTEM} (via --plugin)`);
    expect(text.stdout).toContain(`Plugins:\n  postmortem           ${POSTMORTEM} (via --plugin); provides type postmortem, hook next\n`);
  });

  test('acp.config.yaml in an ancestor: relative paths resolve against it, options reach the plugin; --no-config skips it', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'tools'));
    writeFileSync(join(root, 'tools', 'pm.mjs'), readFileSync(POSTMORTEM));
    writeFileSync(join(root, 'acp.config.yaml'), 'plugins:\n  - ./tools/pm.mjs\n  - path: acp:rfc\n    options:\n      minAlternatives: 3\n');
    const cwd = join(root, 'deep', 'er');
    mkdirSync(cwd, { recursive: true });
    const listed = JSON.parse((await cli(['types', '--json'], cwd)).stdout);
    expect(listed.plugins.map((p: { name: string; source: string; via: string }) => [p.name, p.source, p.via])).toEqual([
      ['postmortem', join(root, 'tools', 'pm.mjs'), join(root, 'acp.config.yaml')],
      ['rfc', 'acp:rfc', join(root, 'acp.config.yaml')],
    ]);
    const folder = join(cwd, 'collab');
    expect((await cli(['init', '--folder', 'collab', ...INIT, '--primary-deliverable-type', 'rfc'], cwd)).code).toBe(0);
    expect(primaryOf(folder).gates).toContain('RFC `Alternatives` lists at least 3 options');
    expect(JSON.parse((await cli(['types', '--json', '--no-config'], cwd)).stdout).plugins).toEqual([]);
  });

  const configCases: [string, string, string][] = [
    ['invalid YAML', 'plugins: [a\n', ':2:1: invalid YAML: '],
    ['an unknown top-level key', 'plugin:\n  - a.mjs\n', ': plugin: unknown key (allowed: plugins, git, strict)'],
    ['an unknown entry key', 'plugins:\n  - path: a.mjs\n    opts: {}\n', ': plugins[0].opts: unknown key (allowed: path, options)'],
    ['an entry of the wrong type', 'plugins:\n  - a.mjs\n  - 5\n', ': plugins[1]: must be a plugin path (a string) or a mapping { path, options }'],
    ['plugins not a list', 'plugins: a.mjs\n', ': plugins: must be a list'],
    ['options not a mapping', 'plugins:\n  - path: a.mjs\n    options: [1]\n', ': plugins[0].options: must be a mapping (key: value)'],
    ['a blank path', 'plugins:\n  - "  "\n', ': plugins[0]: must not be blank'],
    ['a top level that is a list', '- a.mjs\n', ': the top level must be a mapping with a plugins: list'],
  ];
  for (const [name, yaml, expected] of configCases) {
    test(`a config file with ${name} is refused with file, key and reason`, async () => {
      const root = tempDir();
      const file = join(root, 'acp.config.yaml');
      writeFileSync(file, yaml);
      const r = await cli(['types'], root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: ${file}${expected}`);
      expect(r.stderr.split('\n').length).toBe(2);
    });
  }

  test('plugin load errors are clear and exit 2', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'nodefault.mjs'), 'export const x = 1;\n');
    writeFileSync(join(root, 'number.mjs'), 'export default 42;\n');
    writeFileSync(join(root, 'factory.mjs'), "export default () => { throw new Error('no config'); };\n");
    writeFileSync(join(root, 'syntax.mjs'), 'export default {;\n');
    writeFileSync(join(root, 'hooky.mjs'), "export default { name: 'hooky', hooks: { 'append:afer'() {} } };\n");
    writeFileSync(join(root, 'adr.mjs'), "export default { type: 'adr', title: 'My ADR', sections: () => ['A'] };\n");
    writeFileSync(join(root, 'notes.txt'), 'x');
    const cases: [string, string][] = [
      ['missing.mjs', `plugin file not found: ${join(root, 'missing.mjs')} (from --plugin)`],
      ['notes.txt', `plugin ${join(root, 'notes.txt')} (from --plugin) must be a .ts, .mjs, .js file`],
      ['acp:nope', "unknown bundled plugin 'acp:nope' (from --plugin; bundled: acp:rfc, acp:notify-turn)"],
      ['nodefault.mjs', `plugin ${join(root, 'nodefault.mjs')} has no default export`],
      ['number.mjs', `plugin ${join(root, 'number.mjs')}: the default export must be a plugin`],
      ['factory.mjs', `plugin '${join(root, 'factory.mjs')}' failed in its default export function: no config`],
      ['syntax.mjs', `cannot load plugin ${join(root, 'syntax.mjs')}: `],
      ['hooky.mjs', `plugin 'hooky' (${join(root, 'hooky.mjs')}) has an unknown hook 'append:afer' (known: init:files, append:before,`],
      ['adr.mjs', "plugin 'adr': deliverable type 'adr' is built in"],
    ];
    for (const [file, message] of cases) {
      const r = await cli(['types', '--plugin', file], root);
      expect(r.code, file).toBe(2);
      expect(r.stderr, file).toContain(`error: ${message}`);
      expect(r.stderr, file).not.toContain('internal error');
    }
    const twice = await cli(['types', '--plugin', POSTMORTEM, '--plugin', POSTMORTEM], root);
    expect(twice.stderr).toBe(`error: plugin 'postmortem' (${POSTMORTEM}) is loaded twice (first from ${POSTMORTEM})\n`);
  });

  test('a plugin exporting just a deliverable type works, and inline plugins work through createRegistry', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'memo.mjs'), "export default { type: 'memo', title: 'Memo', defaultFile: 'memo.md', sections: () => ['Body'] };\n");
    const listed = JSON.parse((await cli(['types', '--json', '--plugin', 'memo.mjs'], root)).stdout);
    expect(listed.plugins).toEqual([{ name: 'memo', source: join(root, 'memo.mjs'), via: '--plugin', enforce: 'normal', hooks: [], types: ['memo'], commands: [] }]);
    const registry = await createRegistry({ plugins: [definePlugin({ name: 'inline', deliverableTypes: [defineDeliverableType({ type: 'x', title: 'X', sections: () => ['A'] })] })] });
    expect(registry.types.get('x')?.origin).toEqual({ kind: 'plugin', source: 'inline', via: 'createRegistry', plugin: 'inline' });
  });
});

describe('code is never loaded from inside a collaboration folder', () => {
  test('a plugin file inside --folder is refused, with the reason', async () => {
    const root = tempDir();
    const folder = await initFolder(root, 'adr', []);
    writeFileSync(join(folder, 'evil.mjs'), "import { writeFileSync } from 'node:fs'; writeFileSync('/tmp/pwned', 'x'); export default { name: 'evil' };\n");
    const before = snapshot(folder);
    const r = await cli(['append', '--folder', folder, '--participant', 'alice', '--event', 'blocked', '--summary', 'x', '--reply-to', '1', '--plugin', join(folder, 'evil.mjs')], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: refusing to load plugin ${join(folder, 'evil.mjs')}: it is inside the collaboration folder ${folder}.`);
    expect(r.stderr).toContain('anyone who can write that shared folder would gain code execution on every participant');
    expect(snapshot(folder)).toEqual(before);
  });

  test('a symlink pointing into the folder, and any folder holding protocol.json, are refused too', async () => {
    const root = tempDir();
    const folder = await initFolder(root, 'adr', []);
    writeFileSync(join(folder, 'deliverables', 'p.mjs'), "export default { name: 'p' };\n");
    symlinkSync(join(folder, 'deliverables', 'p.mjs'), join(root, 'link.mjs'));
    const viaLink = await cli(['validate', '--folder', folder, '--plugin', 'link.mjs'], root);
    expect(viaLink.code).toBe(2);
    expect(viaLink.stderr).toContain(`it is inside the collaboration folder ${folder}`);
    // A link inside the folder to a file outside it is refused as well (its location counts).
    writeFileSync(join(root, 'outside.mjs'), "export default { name: 'outside' };\n");
    symlinkSync(join(root, 'outside.mjs'), join(folder, 'inside.mjs'));
    const intoFolder = await cli(['validate', '--folder', folder, '--plugin', join(folder, 'inside.mjs')], root);
    expect(intoFolder.code).toBe(2);
    expect(intoFolder.stderr).toContain(`refusing to load plugin ${join(folder, 'inside.mjs')}: it is inside the collaboration folder ${folder}`);
    // No --folder (acp types): the protocol.json next to it is enough.
    const other = await cli(['types', '--plugin', join(folder, 'deliverables', 'p.mjs')], root);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`it is inside the collaboration folder ${folder}`);
  });

  test('a folder that does not exist yet (init) is protected as well', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'future', 'plugins'), { recursive: true });
    writeFileSync(join(root, 'future', 'plugins', 'p.mjs'), "export default { name: 'p' };\n");
    const r = await cli(['init', '--folder', 'future', ...INIT, '--primary-deliverable-type', 'adr', '--plugin', 'future/plugins/p.mjs'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`refusing to load plugin ${join(root, 'future', 'plugins', 'p.mjs')}: it is inside the collaboration folder ${join(root, 'future')}`);
    expect(existsSync(join(root, 'future', 'protocol.json'))).toBe(false);
  });

  test('an acp.config.yaml planted in the collaboration folder is never looked at when working from inside it', async () => {
    const root = tempDir();
    const folder = await initFolder(root, 'adr', []);
    writeFileSync(join(folder, 'acp.config.yaml'), 'plugins:\n  - ./evil.mjs\n');
    const r = await cli(['next', '--folder', '.', '--participant', 'alice'], folder);
    expect(r).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('hooks', () => {
  function recorderConfig(root: string, log: string, plugins: { tag: string; enforce?: string }[]): void {
    const entries = plugins.map(({ tag, enforce }) => `  - path: ${join(FIXTURES, 'recorder.mjs')}\n    options: { log: ${JSON.stringify(log)}, tag: ${tag}${enforce ? `, enforce: ${enforce}` : ''} }\n`);
    writeFileSync(join(root, 'acp.config.yaml'), `plugins:\n${entries.join('')}`);
  }

  test('run pre, then normal, then post (load order within each); setup in load order, cleanup in reverse', async () => {
    const root = tempDir();
    const log = join(root, 'hooks.log');
    recorderConfig(root, log, [{ tag: 'late', enforce: 'post' }, { tag: 'a' }, { tag: 'early', enforce: 'pre' }, { tag: 'b' }]);
    await initFolder(root, 'adr', []);
    const append = await cli(['append', '--folder', 'collab', '--participant', 'alice', '--event', 'blocked', '--summary', 'stop', '--reply-to', '1'], root);
    expect(append.code).toBe(0);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const setup = ['late:setup', 'a:setup', 'early:setup', 'b:setup'];
    const cleanup = ['b:cleanup', 'early:cleanup', 'a:cleanup', 'late:cleanup'];
    const each = (what: string): string[] => ['early', 'a', 'b', 'late'].map((tag) => `${tag}:${what}`);
    expect(lines).toEqual([
      ...setup,
      ...each('init:files'),
      ...cleanup,
      ...setup,
      ...each('append:before blocked'),
      ...each('append:after blocked'),
      ...each('phase:change drafting->blocked'),
      ...cleanup,
    ]);
  });

  test('a veto in append:before writes nothing (byte for byte) and names the plugin', async () => {
    const root = tempDir();
    const folder = await initFolder(root);
    writeFileSync(join(folder, 'deliverables', 'postmortem.md'), postmortemText('Draft'));
    const plugins = ['--plugin', POSTMORTEM, '--plugin', join(FIXTURES, 'veto.mjs')];
    const step = (event: string, replyTo: string, extra: string[] = []) =>
      cli(['append', '--folder', folder, '--participant', event === 'review_submitted' ? 'bob' : 'alice', '--event', event, '--summary', 's', '--reply-to', replyTo, ...extra, ...plugins], root);
    expect((await step('deliverable_drafted', '1', ['--doc', 'deliverables/postmortem.md', '--role', 'primary'])).code).toBe(0);
    expect((await step('proposal_submitted', '2', ['--doc', 'proposal.md'])).code).toBe(0);
    writeFileSync(join(folder, 'review.md'), '# Review\n\n## 2026-01-01T00:00:00Z - bob - seq 4\n\nReviewed primary deliverable: `deliverables/postmortem.md`\nReview Scope:\n- Primary deliverable completeness\n');
    const before = snapshot(folder);
    const vetoed = await step('review_submitted', '3', ['--doc', 'review.md']);
    expect(vetoed).toEqual({ code: 2, stdout: '', stderr: "error: plugin 'veto' refused review_submitted: reviews are frozen this week\n" });
    expect(snapshot(folder)).toEqual(before);
    // Without the veto the same append goes through.
    const allowed = await cli(['append', '--folder', folder, '--participant', 'bob', '--event', 'review_submitted', '--summary', 's', '--reply-to', '3', '--doc', 'review.md', '--plugin', POSTMORTEM], root);
    expect(allowed.stdout).toBe('appended seq 4: review_submitted\n');
  });

  test('append:before cannot alter the event it was shown (it is frozen); the attempt writes nothing', async () => {
    const root = tempDir();
    const folder = await initFolder(root, 'adr', []);
    const host = await createNodeHost();
    const sneaky = definePlugin({
      name: 'sneaky',
      hooks: {
        'append:before'({ event, state }) {
          state.phase = 'completed';
          (event as { summary: string }).summary = 'rewritten';
        },
      },
    });
    const before = snapshot(folder);
    await expect(append(host, folder, { participant: 'alice', event: 'blocked', summary: 'original', replyTo: 1 }, await createRegistry({ plugins: [sneaky] }))).rejects.toThrow(
      "plugin 'sneaky' failed in append:before: Cannot assign to read only property 'summary'",
    );
    expect(snapshot(folder)).toEqual(before);
  });

  test('a throwing init:files hook writes nothing at all', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'acp.config.yaml'), `plugins:\n  - path: ${join(FIXTURES, 'throwing.mjs')}\n    options: { hook: 'init:files' }\n`);
    const r = await cli(['init', '--folder', 'collab', ...INIT, '--primary-deliverable-type', 'adr'], root);
    expect(r).toEqual({ code: 2, stdout: '', stderr: "error: plugin 'explosive' failed in init:files: boom in init:files\n" });
    expect(existsSync(join(root, 'collab'))).toBe(false);
  });

  test('init:files may add files; an unsafe path among them writes nothing', async () => {
    const root = tempDir();
    const host = await createNodeHost();
    const request = { participants: ['alice', 'bob'], objective: 'o', completion: ['c'], primaryType: 'adr' };
    const adding = await createRegistry({ plugins: [{ name: 'notes', hooks: { 'init:files': ({ files }) => void files.set('notes/NOTES.md', '# Notes\n') } } as AcpPlugin] });
    await init(host, join(root, 'ok'), request, adding);
    expect(readFileSync(join(root, 'ok', 'notes', 'NOTES.md'), 'utf8')).toBe('# Notes\n');
    const escaping = await createRegistry({ plugins: [{ name: 'escape', hooks: { 'init:files': ({ files }) => void files.set('../outside.md', 'x') } } as AcpPlugin] });
    await expect(init(host, join(root, 'bad'), request, escaping)).rejects.toThrow('refusing to write outside the folder: ../outside.md');
    expect(existsSync(join(root, 'bad'))).toBe(false);
    expect(existsSync(join(root, 'outside.md'))).toBe(false);
  });

  test('append:after failures: every reaction still runs, and the error says the event stays appended', async () => {
    const root = tempDir();
    const log = join(root, 'hooks.log');
    writeFileSync(
      join(root, 'acp.config.yaml'),
      `plugins:\n  - path: ${join(FIXTURES, 'throwing.mjs')}\n    options: { hook: 'append:after' }\n  - path: ${join(FIXTURES, 'recorder.mjs')}\n    options: { log: ${JSON.stringify(log)}, tag: r }\n`,
    );
    const folder = await initFolder(root, 'adr', []);
    const r = await cli(['append', '--folder', 'collab', '--participant', 'alice', '--event', 'blocked', '--summary', 'stop', '--reply-to', '1'], root);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('appended seq 2: blocked\n');
    expect(r.stderr).toBe("error: plugin 'explosive' failed in append:after: boom in append:after; seq 2 blocked was appended and stays in the log; do not append it again\n");
    expect(readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(readFileSync(log, 'utf8')).toContain('r:append:after blocked\nr:phase:change drafting->blocked\n');
    expect((await cli(['validate', '--folder', 'collab', '--no-config'], root)).code).toBe(0);
  });

  test('a throwing validate hook, type check or cleanup names the plugin (exit 2)', async () => {
    const root = tempDir();
    const folder = await initFolder(root, 'adr', []);
    writeFileSync(join(root, 'acp.config.yaml'), `plugins:\n  - path: ${join(FIXTURES, 'throwing.mjs')}\n    options: { hook: validate }\n`);
    expect((await cli(['validate', '--folder', 'collab'], root)).stderr).toBe("error: plugin 'explosive' failed in validate: boom in validate\n");
    writeFileSync(join(root, 'acp.config.yaml'), `plugins:\n  - path: ${join(FIXTURES, 'throwing.mjs')}\n    options: { cleanup: true }\n`);
    const cleanup = await cli(['validate', '--folder', 'collab'], root);
    expect(cleanup.code).toBe(2);
    expect(cleanup.stdout).toBe('ACP validation passed\n');
    expect(cleanup.stderr).toBe("error: plugin 'explosive' failed in cleanup: cleanup went wrong\n");
    const registry = await createRegistry({
      plugins: [{ type: 'fragile', title: 'Fragile', defaultFile: 'f.md', sections: () => ['A'], check: () => { throw new Error('check broke'); } } as DeliverableType],
    });
    const host = await createNodeHost();
    await init(host, join(root, 'f'), { participants: ['a', 'b'], objective: 'o', completion: ['c'], primaryType: 'fragile' }, registry);
    await expect(validate(host, join(root, 'f'), registry)).rejects.toThrow("plugin 'fragile' failed in the check of deliverable type 'fragile': check broke");
    expect(existsSync(folder)).toBe(true);
  });

  test('next hooks add hints (text and JSON)', async () => {
    const root = tempDir();
    const folder = await initFolder(root);
    const text = await cli(['next', '--folder', folder, '--participant', 'alice', '--plugin', POSTMORTEM], root);
    expect(text.stdout.trim().split('\n').at(-1)).toBe('hint: post-mortems are blameless: describe systems, not people');
    const json = JSON.parse((await cli(['next', '--folder', folder, '--participant', 'alice', '--json', '--plugin', POSTMORTEM], root)).stdout);
    expect(json.hints).toEqual(['post-mortems are blameless: describe systems, not people']);
  });
});

describe('interoperable plugin types', () => {
  test('recorded as custom + pluginType; the plugin check applies when loaded, the checklist and a warning when not', async () => {
    const root = tempDir();
    const folder = join(root, 'collab');
    const run = (args: string[]) => cli(args, root);
    await runFlow(run, { folder, type: 'postmortem', pluginArgs: ['--plugin', POSTMORTEM], deliverable: (status) => postmortemText(status, status === 'Draft') });
    expect(primaryOf(folder).protocol.deliverables).toMatchObject({ primary: { type: 'custom', pluginType: 'postmortem', checklist: ['Impact', 'Timeline', 'Root Cause', 'Action Items'] } });
    const loaded = await cli(['validate', '--folder', folder, '--plugin', POSTMORTEM, '--json'], root);
    expect(JSON.parse(loaded.stdout)).toEqual({ ok: false, errors: ['deliverables/postmortem.md: action item without an owner: Add the index'], warnings: [], exitCode: 2 });
    const without = await cli(['validate', '--folder', folder], root);
    expect(without.code).toBe(1);
    expect(without.stdout).toBe(
      "ACP validation passed with warnings\nWARNING: deliverable type 'postmortem' is not loaded; checked deliverables/postmortem.md against its recorded checklist only (load its plugin with --plugin or acp.config.yaml for its own checks)\n",
    );
    // The recorded checklist is still enforced without the plugin.
    writeFileSync(join(folder, 'deliverables', 'postmortem.md'), postmortemText('Frozen').replace('## Timeline', '## Chronology'));
    expect((await cli(['validate', '--folder', folder], root)).stdout).toContain('ERROR: primary deliverable missing required section: Timeline');
  });

  test('recordAsCustom: false records the type itself, which only runtimes with the plugin accept', async () => {
    const root = tempDir();
    const host = await createNodeHost();
    const own = defineDeliverableType({ type: 'own', title: 'Own', defaultFile: 'own.md', sections: () => ['Body'], recordAsCustom: false });
    const registry = await createRegistry({ plugins: [own] });
    await init(host, join(root, 'c'), { participants: ['a', 'b'], objective: 'o', completion: ['c'], primaryType: 'own' }, registry);
    expect(primaryOf(join(root, 'c')).protocol.deliverables).toMatchObject({ primary: { type: 'own', file: 'own.md', checklist: [] } });
    expect((await validate(host, join(root, 'c'), registry)).errors).toEqual([]);
    expect((await validate(host, join(root, 'c'), await createRegistry())).errors).toContain('primary deliverable type is invalid');
  });
});

describe('plugin rfc', () => {
  const rfc = rfcPlugin(pluginContext({})).deliverableTypes![0]!;
  // The RFC check is synchronous.
  const check = (text: string, frozenRequired = true) => rfc.check!({ text, ref: 'deliverables/rfc.md', sections: [...RFC_SECTIONS], frozenRequired, markdown }) as Findings;

  test('template, sections and gates', () => {
    expect(rfc.sections(['Prior Art', 'Summary'])).toEqual([...RFC_SECTIONS, 'Prior Art']);
    const template = rfc.template!({ title: rfc.title, type: 'rfc', sections: [...RFC_SECTIONS] });
    expect(template.startsWith('# Request for Comments\n\nDeliverable type: `rfc`\nStatus: Draft\nDiscussion: none\nSupersedes: none\n\n## Summary\n')).toBe(true);
    expect(check(template, false)).toEqual({ errors: [], warnings: [] });
    expect(rfc.gates!({ ref: 'r', type: 'custom', defaults: ['d'] })).toEqual([
      'd',
      'RFC header has one `Discussion:` and one `Supersedes:` line',
      'RFC `Alternatives` lists at least 2 options',
      'RFC `Unresolved Questions` says None',
    ]);
  });

  test('a complete frozen RFC passes; each rule has its own message', () => {
    expect(check(rfcText('Frozen'))).toEqual({ errors: [], warnings: [] });
    expect(check(rfcText('Frozen', { alternatives: 1 })).errors).toEqual([
      'deliverables/rfc.md: Alternatives must list at least 2 options (list items or ### headings) once frozen; found 1',
    ]);
    expect(check(rfcText('Draft', { alternatives: 1 }), false).errors).toEqual([]);
    expect(check(rfcText('Frozen', { alternatives: 0 }).replace('Nothing else.', '### Do nothing\n\nNo.\n\n### Buy\n\n- vendor A\n- vendor B\n- vendor C')).errors).toEqual([]);
    expect(check(rfcText('Frozen', { unresolved: '- Which queue?' })).errors).toEqual([
      'deliverables/rfc.md: Unresolved Questions must say None once frozen (classify open questions in readiness.md instead)',
    ]);
    for (const none of ['None', '- None.', 'n/a']) expect(check(rfcText('Frozen', { unresolved: none })).errors).toEqual([]);
    expect(check(rfcText('Frozen', { discussion: 'slack' })).errors).toEqual(["deliverables/rfc.md: `Discussion:` must be an http(s) URL or `none`, got 'slack'"]);
    expect(check(rfcText('Frozen', { supersedes: 'RFC-1, rfc 2' })).errors).toEqual([
      "deliverables/rfc.md: `Supersedes:` must be `none` or a comma-separated list of RFC-<number>, got 'RFC-1, rfc 2'",
    ]);
    expect(check(rfcText('Frozen').replace('Supersedes: RFC-0003\n', '')).errors).toEqual([
      'deliverables/rfc.md: the header (above the first section) must have exactly one `Supersedes:` line (`none` or RFC-<number>, …)',
    ]);
    // A Discussion line inside a section is not the header's.
    expect(check(rfcText('Frozen').replace('Discussion: https://example.org/rfcs/7\n', '').replace('Spikes.', 'Discussion: none')).errors).toHaveLength(1);
    expect(check(rfcText('Frozen').replace('One more service.', 'None.')).warnings).toEqual([
      'deliverables/rfc.md: Drawbacks says None; every design has some cost worth writing down',
    ]);
  });

  test('options: minAlternatives and requireDiscussionUrl; bad options are refused', () => {
    const strict = rfcPlugin(pluginContext({ minAlternatives: 3, requireDiscussionUrl: true })).deliverableTypes![0]!;
    const strictCheck = (text: string) => strict.check!({ text, ref: 'r.md', sections: [...RFC_SECTIONS], frozenRequired: true, markdown });
    expect((strictCheck(rfcText('Frozen')) as { errors: string[] }).errors).toEqual(['r.md: Alternatives must list at least 3 options (list items or ### headings) once frozen; found 2']);
    expect((strictCheck(rfcText('Frozen', { alternatives: 3, discussion: 'none' })) as { errors: string[] }).errors).toEqual([
      'r.md: `Discussion:` must link the discussion once the RFC is frozen',
    ]);
    expect(() => rfcPlugin(pluginContext({ minAlternatives: 'two' }))).toThrow('option minAlternatives must be a positive integer, got "two"');
    expect(() => rfcPlugin(pluginContext({ requireDiscussionUrl: 'yes' }))).toThrow('option requireDiscussionUrl must be true or false');
  });

  test('end to end in-process: the RFC check stops a frozen RFC with open questions', async () => {
    const root = tempDir();
    const folder = join(root, 'collab');
    await runFlow((args) => cli(args, root), { folder, type: 'rfc', pluginArgs: ['--plugin', 'acp:rfc'], deliverable: (status) => rfcText(status, { unresolved: status === 'Draft' ? 'None.' : 'Which queue?' }) });
    const r = await cli(['validate', '--folder', folder, '--plugin', 'acp:rfc'], root);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('ERROR: deliverables/rfc.md: Unresolved Questions must say None once frozen');
  });
});

describe('plugin notify-turn', () => {
  const afterContext = (over: Partial<AfterAppendContext> & { phase?: string; waiting?: string[] }): AfterAppendContext =>
    ({
      folder: '/f',
      protocol: { participants: [{ id: 'alice' }, 'bob', { id: 'carol' }] },
      event: { seq: 3, from: 'alice', event: 'proposal_submitted', at: 't', summary: 's' },
      state: { phase: over.phase ?? 'reviewing', waitingFor: over.waiting ?? ['bob', 'carol'] },
      previousPhase: 'drafting',
      previousWaitingFor: ['alice'],
      ...over,
    }) as AfterAppendContext;

  test('whose turn came, and the end of the collaboration', () => {
    const all = { on: ['turn', 'completed', 'blocked'] as ('turn' | 'completed' | 'blocked')[] };
    expect(dueNotifications(afterContext({}), all)).toEqual([
      { participant: 'bob', reason: 'turn' },
      { participant: 'carol', reason: 'turn' },
    ]);
    expect(dueNotifications(afterContext({}), { ...all, participants: ['carol'] })).toEqual([{ participant: 'carol', reason: 'turn' }]);
    // Still waited for (a review came from someone else): not a new turn.
    expect(dueNotifications(afterContext({ previousPhase: 'reviewing', previousWaitingFor: ['bob', 'carol'], waiting: ['carol'] }), all)).toEqual([]);
    expect(dueNotifications(afterContext({ phase: 'completed', waiting: [] }), { ...all, participants: ['bob'] })).toEqual([{ participant: 'bob', reason: 'completed' }]);
    expect(dueNotifications(afterContext({ phase: 'blocked', waiting: [] }), { on: ['turn'] })).toEqual([]);
  });

  test('options are checked with precise messages', () => {
    expect(() => parseNotifyTurnOptions({})).toThrow('option command must be a non-empty list of strings');
    expect(() => parseNotifyTurnOptions({ command: 'notify-send hi' })).toThrow('option command must be a non-empty list of strings');
    expect(() => parseNotifyTurnOptions({ command: ['x'], on: ['soon'] })).toThrow('option on must be a list of turn, completed, blocked');
    expect(() => parseNotifyTurnOptions({ command: ['x'], participant: 'bob' })).toThrow("unknown option 'participant' (known: command, participants, on,");
    expect(() => notifyTurn(pluginContext({ command: ['x'] }, { name: 'unknown' }))).toThrow('this runtime (unknown) cannot run commands');
    expect(parseNotifyTurnOptions({ command: ['x'], participants: 'bob' })).toMatchObject({ participants: ['bob'], timeoutSeconds: 60, background: false, failOnError: false });
  });

  test('its hook deadline outlasts its command timeout, so a slow command is killed and warned about, never a hook timeout', () => {
    const run = async () => ({ code: 0, stdout: '', stderr: '' });
    expect(notifyTurn(pluginContext({ command: ['x'] }, { name: 'node', run })).timeoutMs).toBe(65_000);
    expect(notifyTurn(pluginContext({ command: ['x'], timeoutSeconds: 2 }, { name: 'node', run })).timeoutMs).toBe(7_000);
  });

  /** A config running node to log `{participant} {reason} $ACP_PHASE $ACP_SEQ` lines. */
  function notifyConfig(root: string, log: string, extra = ''): void {
    const script = "require('fs').appendFileSync(process.argv[1], process.argv.slice(2).join(' ') + ' ' + process.env.ACP_PHASE + ' ' + process.env.ACP_SEQ + '\\n')";
    const command = [process.execPath, '-e', script, log, '{participant}', '{reason}'];
    writeFileSync(join(root, 'acp.config.yaml'), `plugins:\n  - path: acp:notify-turn\n    options:\n      participants: [bob]\n      command: ${JSON.stringify(command)}\n${extra}`);
  }

  test('runs the command (no shell) when bob’s turn comes and when the collaboration ends', async () => {
    const root = tempDir();
    const log = join(root, 'notify.log');
    notifyConfig(root, log);
    const folder = join(root, 'collab');
    await runFlow((args) => cli(args, root), { folder, type: 'adr', pluginArgs: [], deliverable: (status) => adrText(status) });
    // bob's turns: reviewing (seq 3), decision acceptance (seq 6); then completed (seq 11).
    expect(readFileSync(log, 'utf8')).toBe('bob turn reviewing 3\nbob turn decision_review 6\nbob completed completed 11\n');
  });

  test('a participant id is never spliced into a shell string: templates that would are refused, values arrive as argv entries and env', async () => {
    const root = tempDir();
    const touched = join(root, 'p');
    const id = `x;touch ${touched};#`;
    const log = join(root, 'notify.log');
    for (const command of [['bash', '-c', `echo {participant} >> ${log}`], ['bash', '-c', '{participant}'], ['{participant}'], ['notify-send', 'ACP: {participant}']]) {
      expect(() => parseNotifyTurnOptions({ command }), JSON.stringify(command)).toThrow('option command: ');
    }
    const folder = join(root, 'collab');
    const init = await cli(['init', '--folder', folder, '--participant', 'alice', '--participant', id, '--objective', 'o', '--completion', 'c', '--primary-deliverable-type', 'adr'], root);
    expect(init).toMatchObject({ code: 0, stderr: '' });
    const script = `printf '%s|%s\n' "$ACP_PARTICIPANT" "$1" >> ${JSON.stringify(log)}`;
    writeFileSync(join(root, 'acp.config.yaml'), `plugins:\n  - path: acp:notify-turn\n    options: { command: ${JSON.stringify(['bash', '-c', script, 'notify', '{participant}'])}, on: [blocked] }\n`);
    const r = await cli(['append', '--folder', 'collab', '--participant', 'alice', '--event', 'blocked', '--summary', 's', '--reply-to', '1'], root);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(log, 'utf8')).toBe(`alice|alice\n${id}|${id}\n`);
    expect(existsSync(touched)).toBe(false);
  });

  test('placeholders follow an allowlist (issue 27 item 5): the audit\'s bypasses through env, python3 -c and node -e are refused; data positions are kept', () => {
    const refused = [
      ['env', 'bash', '-c', '{participant}'],
      ['python3', '-c', '{participant}'],
      ['node', '-e', '{participant}'],
      ['/usr/bin/env', 'sh', '-c', '{participant}'],
      ['sudo', '-u', 'bob', 'sh', '-c', '{participant}'],
      ['python3', '{participant}'],
      ['perl', '-e', '{participant}'],
      ['tmux', 'send-keys', '-t', 'bob', '{participant}', 'Enter'],
      ['ssh', 'host', '{participant}'],
      ['xargs', '{participant}'],
    ];
    for (const command of refused) expect(() => parseNotifyTurnOptions({ command }), JSON.stringify(command)).toThrow('option command: ');
    const kept = [
      ['notify-send', 'ACP: your turn', '{participant}'],
      ['bash', '-c', 'wake "$1"', 'notify', '{participant}'],
      ['python3', '-c', 'import sys; print(sys.argv[1])', '{participant}'],
      [process.execPath, '-e', 'console.log(process.argv[1])', '{participant}', '{reason}'],
    ];
    for (const command of kept) expect(parseNotifyTurnOptions({ command }).command, JSON.stringify(command)).toEqual(command);
    // A value that would be read as an option is never put in argv.
    expect(() => notificationArgv(['notify-send', '{participant}'], { participant: '-f/etc/shadow' })).toThrow("begins with '-'");
    expect(notificationArgv(['notify-send', 'turn', '{participant}'], { participant: 'x;touch /tmp/p;#' })).toEqual(['notify-send', 'turn', 'x;touch /tmp/p;#']);
  });

  test('placeholders where the program takes data, as it parses its arguments (issue 38 item 7): a -c anywhere among a shell\'s options makes its next operand code', () => {
    const p = '{participant}';
    const refused = [
      ['bash', '-c', '-c', p],
      ['bash', '-c', '-e', p],
      ['bash', '-c', '--', p],
      ['bash', '-c', '-', p],
      ['bash', '-ec', p],
      ['sh', '-xc', p],
      ['dash', '-e', '-c', p],
      ['zsh', '-c', '-o', 'errexit', p],
      ['bash', '-o', 'errexit', '-c', p],
      ['bash', '--norc', '-c', p],
      ['bash', '-c', '+x', p],
      ['bash', '-o', p, '-c', 'code', 'name'],
      ['bash', 'script.sh', p],
      ['/bin/bash', '-c', '-c', p],
      ['busybox', 'sh', '-c', '-c', p],
      ['busybox', 'wget', p],
      ['env', 'bash', '-c', '-c', p],
      ['env', '-i', 'A=1', 'bash', '-c', p],
      ['env', '-u', 'HOME', 'sh', '-ec', p],
      ['env', '-S', 'bash -c', 'code', p],
      ['env', p],
      ['env', '--', 'sh', '-c', p],
      ['python3', '-I', '-c', p],
      ['python3', '-Ic', p],
      ['python3', '-W', 'ignore', '-c', p],
      ['python3', '-m', 'mod', p],
      ['python3', 'script.py', '-c', 'x', p],
      ['python3', '-', p],
      ['node', '-e', '-e', p],
      ['node', '-r', 'mod', '-e', p],
      ['node', '--eval', p],
      ['node', '-p', p],
      ['node', 'script.js', '-e', 'x', p],
      ['bun', '-e', p],
      ['perl', '-le', p],
      ['perl', '-e', 'x', '-e', p],
      ['ruby', 'script.rb', p],
    ];
    for (const command of refused) expect(() => parseNotifyTurnOptions({ command }), JSON.stringify(command)).toThrow('option command: ');
    const kept = [
      ['bash', '-c', 'wake "$1"', 'notify', p],
      ['bash', '-ec', 'wake "$1"', 'notify', p],
      ['bash', '-c', '-e', 'wake "$0"', p],
      ['bash', '-c', '--', 'wake "$0"', p],
      ['bash', '-o', 'errexit', '-c', 'wake "$0"', p],
      ['sh', '-xc', 'wake "$0"', p],
      ['dash', '-c', 'wake "$0"', p],
      ['zsh', '-c', 'wake "$0"', p],
      ['busybox', 'sh', '-c', 'wake "$0"', p],
      ['env', 'bash', '-c', 'wake "$0"', p],
      ['/usr/bin/env', '-i', 'A=1', '-u', 'B', 'sh', '-c', 'wake "$0"', p],
      ['env', '--', 'python3', '-c', 'import sys', p],
      ['python3', '-c', 'import sys', p, '{reason}'],
      ['python3', '-Ic', 'import sys', p],
      ['python3', '-cimport sys', p],
      ['node', '-e', 'x', p],
      ['node', '--eval=x', p],
      ['node', '-e', 'x', '--', p],
      ['node', '-r', 'mod', '-e', 'x', p],
      ['bun', '-e', 'x', p],
      ['perl', '-le', 'print @ARGV', p],
      ['perl', '-e', 'x', '-e', 'y', p],
      ['ruby', '-e', 'p ARGV', p],
    ];
    for (const command of kept) expect(parseNotifyTurnOptions({ command }).command, JSON.stringify(command)).toEqual(command);
  });

  test('what the kept spellings run: the value reaches the shell as data, never as code', async () => {
    const root = tempDir();
    const touched = join(root, 'p');
    const value = `x;touch ${touched};#`;
    const log = join(root, 'log');
    const script = `printf '%s\\n' "$0" >> ${JSON.stringify(log)}`;
    const run = async (argv: string[]): Promise<void> => void execFileSync(argv[0]!, argv.slice(1));
    for (const command of [['bash', '-c', '-e', script, '{participant}'], ['sh', '-ec', script, '{participant}'], ['env', 'A=1', 'bash', '-c', '--', script, '{participant}']]) {
      await run(notificationArgv(parseNotifyTurnOptions({ command }).command, { participant: value }));
    }
    expect(readFileSync(log, 'utf8')).toBe(`${value}\n`.repeat(3));
    expect(existsSync(touched)).toBe(false);
  });

  test('a failing command is a warning by default, an error naming the plugin with failOnError', async () => {
    const root = tempDir();
    await initFolder(root, 'adr', []);
    const fail = (code: number) => [process.execPath, '-e', `process.stderr.write('no display'); process.exit(${code})`];
    writeFileSync(join(root, 'acp.config.yaml'), `plugins:\n  - path: acp:notify-turn\n    options: { command: ${JSON.stringify(fail(3))} }\n`);
    const warned = await cli(['append', '--folder', 'collab', '--participant', 'alice', '--event', 'blocked', '--summary', 's', '--reply-to', '1'], root);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toBe(`warning: plugin 'notify-turn': could not notify alice (blocked): ${process.execPath} exited with 3: no display\nwarning: plugin 'notify-turn': could not notify bob (blocked): ${process.execPath} exited with 3: no display\n`);
    rmSync(join(root, 'collab'), { recursive: true });
    await initFolder(root, 'adr', []);
    writeFileSync(join(root, 'acp.config.yaml'), `plugins:\n  - path: acp:notify-turn\n    options: { command: [definitely-not-a-command-acp], participants: bob, failOnError: true }\n`);
    const failed = await cli(['append', '--folder', 'collab', '--participant', 'alice', '--event', 'blocked', '--summary', 's', '--reply-to', '1'], root);
    expect(failed.code).toBe(2);
    expect(failed.stdout).toBe('appended seq 2: blocked\n');
    expect(failed.stderr).toBe(
      "error: plugin 'notify-turn' failed in append:after: could not notify bob (blocked): command not found: definitely-not-a-command-acp; seq 2 blocked was appended and stays in the log; do not append it again\n",
    );
  });
});

function adrText(status: 'Draft' | 'Frozen'): string {
  const body = ['Status', 'Context', 'Decision', 'Alternatives Considered', 'Consequences', 'Follow-ups'].map((s) => `## ${s}\n\nFilled.\n`).join('\n');
  return `# Architecture Decision Record\n\nDeliverable type: \`adr\`\nStatus: ${status}\n\n${body}`;
}

describe('docs/plugins.md "Write a plugin"', () => {
  test('the example file works as documented', async () => {
    const page = readFileSync(join(REPO, 'docs', 'plugins.md'), 'utf8');
    const section = page.slice(page.indexOf('## Write a plugin'));
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code, 'docs/plugins.md has a ```js block under "## Write a plugin"').toBeDefined();
    const root = tempDir();
    writeFileSync(join(root, 'threat-model.mjs'), code!);
    const plugin = ['--plugin', './threat-model.mjs'];
    const init = await cli(['init', ...plugin, '--folder', 'collab', '--participant', 'alice', '--participant', 'bob', '--objective', 'Model the upload service', '--completion', 'Threats reviewed', '--primary-deliverable-type', 'threat-model'], root);
    expect(init.code).toBe(0);
    const folder = join(root, 'collab');
    expect(readFileSync(join(folder, 'deliverables', 'threat-model.md'), 'utf8')).toContain('## Scope\n\n\n\n## Assets\n\n\n\n## Threats\n\n\n\n## Mitigations\n');
    expect(primaryOf(folder).gates.at(-1)).toBe('Every threat has a mitigation');
    // The veto shown on the page, byte for byte nothing written.
    const before = snapshot(folder);
    const refused = await cli(['append', ...plugin, '--folder', 'collab', '--participant', 'alice', '--event', 'deliverable_drafted', '--doc', 'deliverables/threat-model.md', '--role', 'primary', '--reply-to', '1', '--summary', 'first draft'], root);
    expect(refused.code).toBe(2);
    expect(section).toContain(`# ${refused.stderr.trim()}`);
    expect(snapshot(folder)).toEqual(before);
    const ok = await cli(['append', ...plugin, '--folder', 'collab', '--participant', 'alice', '--event', 'deliverable_drafted', '--doc', 'deliverables/threat-model.md', '--role', 'primary', '--reply-to', '1', '--summary', 'first draft, SEC-12'], root);
    expect(ok.stdout).toBe('appended seq 2: deliverable_drafted\n');
    expect((await cli(['next', ...plugin, '--folder', 'collab', '--participant', 'alice'], root)).stdout).toContain('\nhint: think STRIDE');
    expect((await cli(['validate', ...plugin, '--folder', 'collab'], root)).stdout).toBe('ACP validation passed\n');
    const type = (await createRegistry({ plugins: [join(root, 'threat-model.mjs')] })).type('threat-model')!;
    const text = '# T\n\nStatus: Frozen\n\n## Threats\n\n- spoofed uploads\n- huge files\n\n## Mitigations\n\n- signed URLs\n';
    expect(await type.check!({ text, ref: 'deliverables/threat-model.md', sections: [], frozenRequired: true, markdown })).toEqual({
      errors: ['deliverables/threat-model.md: 2 threats but only 1 mitigations'],
      warnings: [],
    });
  });
});
