// Capabilities, not trust (issue 35): the host and the library a plugin is
// given cannot write the collaboration's own files outside the
// transaction. A user plugin (test/plugins/fixtures/trespasser.mjs) tries
// every writer it holds — each FileSystem method, the confined and
// beneath file systems, api.writeFileAtomic, api.createNodeHost, a write
// under api.withFolderLock — against events.jsonl, protocol.json, the lock
// and its tickets, the checkpoint and init's journal, by `./`, `..`, a
// trailing slash, another case, a symlinked file and a symlinked folder.
// Each is refused with a clear error, nothing in the folder changes, and
// the plugin's own output file is still written. In process here; on
// node, bun, deno and the binary in test/plugins-runtimes.test.ts.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { confineHost, createMemoryHost, createNodeHost, createRegistry, init, readEventLog, runCli } from '../acp.ts';
import { guardHost, writerHost } from '../runtime/guarded-host.ts';
import { TRESPASSER, expectAllRefused, snapshotFolder, trespassFolder } from './plugins/trespass.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

async function cli(cwd: string, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = await createNodeHost();
  const host = { ...base, resolvePath: (path: string) => resolve(cwd, path) };
  let stdout = '';
  let stderr = '';
  const code = await runCli({ argv, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false }, host);
  return { code, stdout, stderr };
}

/** A new root holding the attacked folder. */
async function trespassRoot(): Promise<{ root: string; folder: string }> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-guard-')));
  roots.push(root);
  return { root, folder: await trespassFolder(root, cli) };
}

describe('a plugin cannot write the folder\'s own files outside the transaction', () => {
  test('every writer it was given is refused, with a clear error, and the folder is unchanged', async () => {
    const { root, folder } = await trespassRoot();
    const before = snapshotFolder(folder);
    const r = await cli(root, 'trespass', '--folder', folder, '--plugin', TRESPASSER, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { results } = JSON.parse(r.stdout);
    expectAllRefused(results);
    expect(results['host.fs.writeFile events.jsonl']).toBe(`refused to write ${folder}/events.jsonl: events.jsonl is the collaboration's own file (only the transaction writes it: append, freeze, api.transact)`);
    expect(results['host.fs.writeFile .acp.lock']).toBe(`refused to write ${folder}/.acp.lock: it is a folder lock's file (only the lock itself writes it)`);
    expect(results['host.fs.writeFile through a symlink to events.jsonl']).toContain(`refused to write ${folder}/notes-link: events.jsonl is the collaboration's own file`);
    expect(snapshotFolder(folder)).toEqual(before);
  });

  test('a refused write the plugin does not catch: error: …, exit 2, nothing written', async () => {
    const { root, folder } = await trespassRoot();
    const before = snapshotFolder(folder);
    const r = await cli(root, 'trespass', '--folder', folder, '--plugin', TRESPASSER, '--only', 'host.fs.appendFile events.jsonl');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: refused to write ${folder}/events.jsonl: events.jsonl is the collaboration's own file (only the transaction writes it: append, freeze, api.transact)\n`);
    expect(snapshotFolder(folder)).toEqual(before);
  });

  test('the same host, unwrapped by the core, still writes: init and append through a guarded host work', async () => {
    const host = createMemoryHost();
    const guarded = guardHost(host);
    expect(writerHost(guarded)).toBe(host);
    expect(guardHost(guarded)).toBe(guarded);
    const registry = await createRegistry({ host, config: false });
    await init(guarded, '/c', { participants: ['alice', 'bob'], objective: 'o', completion: ['c'], primaryType: 'design-spec' }, registry);
    expect((await readEventLog(host, '/c')).events).toHaveLength(1);
    await expect(guarded.fs.appendFile('/c/events.jsonl', 'x')).rejects.toThrow("refused to write /c/events.jsonl: events.jsonl is the collaboration's own file");
    // A plugin that spreads its host keeps a whole host, and a guarded one.
    const spread = { ...guarded, resolvePath: (path: string) => path };
    expect(spread.now()).toBeInstanceOf(Date);
    await expect(spread.fs.writeFile('/c/protocol.json', '{}')).rejects.toThrow("refused to write /c/protocol.json: protocol.json is the collaboration's own file");
    // A server's confined host made from a guarded one stays guarded, and the core still finds its writer (confined too).
    const confined = confineHost(guarded, ['/c']);
    await expect(confined.fs.appendFile('/c/events.jsonl', 'x')).rejects.toThrow('refused to write /c/events.jsonl');
    expect(guardHost(confined)).toBe(confined);
    await writerHost(guardHost(confined)).fs.appendFile('/c/notes.md', 'mine');
    // A new, empty folder holds nothing to protect: a plugin's own events.jsonl elsewhere is its business.
    await guarded.fs.mkdir('/elsewhere');
    await guarded.fs.writeFile('/elsewhere/events.jsonl', 'mine');
    expect(new TextDecoder().decode(await host.fs.readFile('/elsewhere/events.jsonl'))).toBe('mine');
  });
});
