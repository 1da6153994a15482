// Whose code acp runs (issue 16, item 1): acp.config.yaml and plugin files
// planted by another user are refused, the config search stays inside the
// repository or home and out of collaboration folders, and ACP_TRUSTED_CONFIG
// opts a deliberate shared setup back in. Tests run as root here, so "another
// user" is a file chowned to `nobody`.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createNodeHost, runCli } from '../acp.ts';

const NOBODY = 65534;
const dirs: string[] = [];

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-trust-')));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `acp <args>` in this process with `cwd` as working directory and `env` as its environment. */
async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = await createNodeHost();
  const host = { ...base, resolvePath: (path: string) => resolve(cwd, path) };
  let stdout = '';
  let stderr = '';
  const code = await runCli({ argv: args, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false, env: (name) => env[name] }, host);
  return { code, stdout, stderr };
}

/** A config in `dir` loading a plugin that leaves `marker` behind when its code runs. */
function plantConfig(dir: string, marker: string): void {
  writeFileSync(join(dir, 'evil.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { name: 'evil' };\n`);
  writeFileSync(join(dir, 'acp.config.yaml'), 'plugins:\n  - ./evil.mjs\n');
}

const isRoot = process.getuid?.() === 0;

describe('config and plugin files from other users', () => {
  test.runIf(isRoot)('a config planted by nobody in a world-writable ancestor is refused, naming file and owner; its code never runs', async () => {
    const root = tempDir();
    const shared = join(root, 'shared');
    const work = join(shared, 'me', 'work');
    mkdirSync(work, { recursive: true });
    chmodSync(shared, 0o777);
    const marker = join(root, 'ran');
    plantConfig(shared, marker);
    for (const name of ['acp.config.yaml', 'evil.mjs']) chownSync(join(shared, name), NOBODY, NOBODY);
    const r = await cli(['types'], work);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: refusing to load the config file ${join(shared, 'acp.config.yaml')} is owned by uid ${NOBODY}( \\(\\w+\\))?, and you are uid 0`));
    expect(r.stderr).toContain(`ACP_TRUSTED_CONFIG=${join(shared, 'acp.config.yaml')}`);
    expect(existsSync(marker)).toBe(false);
    // --no-config still works from there.
    expect((await cli(['types', '--no-config'], work)).code).toBe(0);
  });

  test('a config of ours in a directory everyone may write (not sticky) is refused: anyone could swap it', async () => {
    const root = tempDir();
    const open = join(root, 'open');
    mkdirSync(join(open, 'work'), { recursive: true });
    chmodSync(open, 0o777);
    const marker = join(root, 'ran');
    plantConfig(open, marker);
    const r = await cli(['types'], join(open, 'work'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: refusing to load the config file ${join(open, 'acp.config.yaml')}: its directory ${open} is writable by everyone (mode 777)`);
    expect(existsSync(marker)).toBe(false);
  });

  test('a group-writable plugin file given with --plugin is refused', async () => {
    const root = tempDir();
    const marker = join(root, 'ran');
    plantConfig(root, marker);
    chmodSync(join(root, 'evil.mjs'), 0o664);
    const r = await cli(['types', '--no-config', '--plugin', 'evil.mjs'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: refusing to load plugin ${join(root, 'evil.mjs')} is writable by its group (mode 664)`);
    expect(existsSync(marker)).toBe(false);
  });

  test.runIf(isRoot)('ACP_TRUSTED_CONFIG, read through the environment the CLI is given, opts a deliberate shared setup back in', async () => {
    const root = tempDir();
    const shared = join(root, 'shared');
    mkdirSync(join(shared, 'work'), { recursive: true });
    const marker = join(root, 'ran');
    plantConfig(shared, marker);
    for (const name of ['acp.config.yaml', 'evil.mjs']) chownSync(join(shared, name), NOBODY, NOBODY);
    expect((await cli(['types'], join(shared, 'work'))).code).toBe(2);
    const r = await cli(['types'], join(shared, 'work'), { ACP_TRUSTED_CONFIG: shared });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(marker)).toBe(true);
  });
});

describe('where the config search looks', () => {
  test('it stops at the repository root (.git): a config above the repository is not loaded', async () => {
    const root = tempDir();
    const marker = join(root, 'ran');
    plantConfig(root, marker);
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    mkdirSync(join(root, 'repo', 'src'));
    expect(await cli(['types'], join(root, 'repo', 'src'))).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(marker)).toBe(false);
    // The repository's own config is found.
    plantConfig(join(root, 'repo'), marker);
    expect((await cli(['types'], join(root, 'repo', 'src'))).code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  test('it stops at the home directory', async () => {
    const root = tempDir();
    const marker = join(root, 'ran');
    plantConfig(root, marker);
    mkdirSync(join(root, 'home', 'me', 'work'), { recursive: true });
    expect(await cli(['types'], join(root, 'home', 'me', 'work'), { HOME: join(root, 'home', 'me') })).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(marker)).toBe(false);
  });

  test('it never looks inside a collaboration folder, even one whose protocol.json was removed', async () => {
    const root = tempDir();
    const folder = join(root, 'task');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'events.jsonl'), '');
    const marker = join(root, 'ran');
    plantConfig(folder, marker);
    expect(await cli(['types'], folder)).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(marker)).toBe(false);
  });

  test("it never looks in acp serve's root (the working directory by default)", async () => {
    const root = tempDir();
    const marker = join(root, 'ran');
    plantConfig(root, marker);
    // serve fails later (no transport given); the config must not have run by then.
    await cli(['serve', '--tcp', 'not-a-port'], root);
    await cli(['serve', '--root', root, '--tcp', 'not-a-port'], root);
    expect(existsSync(marker)).toBe(false);
  });

  test('a config file that exists but cannot be read is an error, not a skip', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'acp.config.yaml'));
    const r = await cli(['types'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${join(root, 'acp.config.yaml')} is not a regular file`);
  });
});
