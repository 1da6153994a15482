// Reliability II (issue 17): the lock across PID namespaces, hook deadlines,
// file types that hang or explode, exit codes that tell the truth.
//
// The race of appenders inside and outside `unshare --pid --fork --mount-proc`
// and the FIFO / device cases need root (or are slow): they run with
// ACP_LONG=1 (`npm run test:long`), and fail (not skip) when unshare is
// missing then.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { DIST, DIST_URL, LONG, NOTES_REF, cli, makeFolder, readLines, spawnNode, writeWorker } from './reliability/fixture.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'acp-rel2-'));
  roots.push(root);
  return root;
}

const folder = async (): Promise<string> => makeFolder(tempRoot(), ['ann', 'bob']);
const draft = (f: string, summary = 'notes', extra: string[] = []) =>
  cli(['append', '--folder', f, '--participant', 'bob', '--event', 'deliverable_drafted', '--summary', summary, '--reply-to', '1', '--role', 'supporting', '--doc', NOTES_REF, ...extra]);

describe('the lock and PID namespaces', () => {
  test('a lock naming a live pid of this namespace with another start time is abandoned at once', async () => {
    const f = await folder();
    const host = await acp.createNodeHost();
    expect(host.identity?.startTime, 'this test needs /proc').toBeDefined();
    // pid 1 is alive, but it is not the process that wrote this lock.
    writeFileSync(join(f, '.acp.lock'), JSON.stringify({ pid: 1, hostname: host.hostname, token: 'x', at: Date.now(), bootId: host.identity?.bootId, pidNs: host.identity?.pidNamespace, start: '1', leaseMs: 10_000 }));
    expect((await acp.inspectFolderLock(host, f)).status).toBe('abandoned');
    const r = await draft(f);
    expect(r.stderr).toBe('');
    expect(r.rc).toBe(0);
  });

  test('a lock from another PID namespace is held while its lease is fresh, abandoned past it', async () => {
    const f = await folder();
    const host = await acp.createNodeHost();
    // Its pid is dead here, which says nothing: it lives in another namespace.
    const lock = { pid: 2 ** 22 + 12345, hostname: host.hostname, token: 'x', at: Date.now(), bootId: host.identity?.bootId, pidNs: 'other', start: '5', leaseMs: 10_000 };
    writeFileSync(join(f, '.acp.lock'), JSON.stringify(lock));
    expect((await acp.inspectFolderLock(host, f)).status).toBe('held');
    const waits: string[] = [];
    await expect(acp.append(host, f, { participant: 'bob', event: 'deliverable_drafted', summary: 's', replyTo: 1, role: 'supporting', doc: NOTES_REF }, undefined, { lockTimeoutMs: 1500, onLockWait: (m) => waits.push(m) }))
      .rejects.toThrow(/timed out waiting for the lock .* \(held by pid 4206649 on .* \(another machine, boot or PID namespace: judged by its lease\), held \d+ s\)/);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatch(/^waiting for the lock on .*: held by pid 4206649/);
    expect(readLines(f)).toHaveLength(1);
    // Past its lease (the holder stopped renewing): doctor --fix breaks it.
    const old = new Date(Date.now() - 11_000);
    const { utimesSync } = await import('node:fs');
    utimesSync(join(f, '.acp.lock'), old, old);
    expect((await acp.inspectFolderLock(host, f)).status).toBe('abandoned');
    const fixed = await cli(['doctor', '--folder', f, '--fix']);
    expect(fixed.stdout).toContain('broke the abandoned lock');
    expect(existsSync(join(f, '.acp.lock'))).toBe(false);
  });

  test('the holder renews its lease while a slow hook runs', async () => {
    const f = await folder();
    const host = await acp.createNodeHost();
    const registry = await acp.createRegistry();
    const mtimes: number[] = [];
    await registry.addPlugin({
      name: 'slow',
      timeoutMs: 20_000,
      hooks: { 'append:before': async () => {
        // Past one renewal period (2.5 s), bounded.
        for (let i = 0; i < 32 && new Set(mtimes).size < 2; i++) {
          mtimes.push(statSync(join(f, '.acp.lock')).mtimeMs);
          await new Promise((r) => setTimeout(r, 250));
        }
      } },
    }, { kind: 'plugin', source: 'test' });
    await acp.append(host, f, { participant: 'bob', event: 'deliverable_drafted', summary: 's', replyTo: 1, role: 'supporting', doc: NOTES_REF }, registry);
    expect(new Set(mtimes).size).toBe(2);
    expect(existsSync(join(f, '.acp.lock'))).toBe(false);
  }, 20_000);

  test.runIf(LONG)('appenders inside and outside `unshare --pid` on one folder: no duplicated seq', async () => {
    const unshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']);
    expect(unshare.error, 'unshare is missing (util-linux)').toBeUndefined();
    expect(unshare.status, `unshare --pid needs root: ${unshare.stderr}`).toBe(0);
    const root = tempRoot();
    const f = await makeFolder(root, ['ann', 'bob']);
    const worker = writeWorker(root);
    const SIDE = 8;
    const COUNT = 25;
    const runs = [];
    for (let i = 0; i < SIDE; i++) {
      runs.push(spawnNode([worker, DIST_URL, f, 'bob', String(COUNT)], { timeoutMs: 240_000 }));
      runs.push(new Promise<{ rc: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, worker, DIST_URL, f, 'bob', String(COUNT)], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (t: string) => void (stdout += t));
        child.stderr.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
        const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
        child.on('close', (rc) => {
          clearTimeout(timer);
          done({ rc, stdout, stderr });
        });
      }));
    }
    const results = await Promise.all(runs);
    let ok = 0;
    for (const r of results) {
      expect(r.rc, r.stderr).toBe(0);
      const parsed = JSON.parse(r.stdout) as { ok: unknown[]; failed: unknown[] };
      expect(parsed.failed).toEqual([]);
      ok += parsed.ok.length;
    }
    const seqs = readLines(f).map((e) => e.seq as number);
    const duplicated = seqs.length - new Set(seqs).size;
    console.log(`unshare race: ${SIDE}+${SIDE} processes × ${COUNT} appends, ${ok} ok, ${seqs.length} lines, ${duplicated} duplicated seqs`);
    expect(duplicated).toBe(0);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  }, 300_000);
});

describe('hook deadlines', () => {
  test('a hook that never settles: exit 2 naming it, nothing written, lock released', async () => {
    const root = tempRoot();
    const f = await makeFolder(root, ['ann', 'bob']);
    const plugin = join(root, 'hang.mjs');
    writeFileSync(plugin, "export default { name: 'hang', timeoutMs: 300, hooks: { 'append:before': () => new Promise(() => {}) } };\n");
    const before = readFileSync(join(f, 'events.jsonl'));
    const r = await spawnNode([DIST, 'append', '--plugin', plugin, '--folder', f, '--participant', 'bob', '--event', 'deliverable_drafted', '--summary', 's', '--reply-to', '1', '--role', 'supporting', '--doc', NOTES_REF], { timeoutMs: 20_000 });
    expect(r.stderr).toBe("error: plugin 'hang' timed out in append:before after 0.3 s\n");
    expect(r.rc).toBe(2);
    expect(readFileSync(join(f, 'events.jsonl')).equals(before)).toBe(true);
    expect(existsSync(join(f, '.acp.lock'))).toBe(false);
  });

  test('timeoutMs must be a positive number', async () => {
    const registry = await acp.createRegistry();
    await expect(registry.addPlugin({ name: 'bad', timeoutMs: -1 } as acp.AcpPlugin, { kind: 'plugin', source: 'test' })).rejects.toThrow("plugin 'bad' (test): timeoutMs must be a positive number of milliseconds");
  });
});

describe('file types', () => {
  test('a symlink to /dev/zero as a document, protocol.json or events.jsonl is refused, not read', async () => {
    const f = await folder();
    unlinkSync(join(f, 'readiness.md'));
    symlinkSync('/dev/zero', join(f, 'readiness.md'));
    const r = await draft(f);
    expect(r.stderr).toBe('error: readiness.md is not a regular file (a FIFO, device or socket); acp reads only regular files\n');
    expect(r.rc).toBe(2);
    unlinkSync(join(f, 'readiness.md'));
    writeFileSync(join(f, 'readiness.md'), '');
    rmSync(join(f, 'events.jsonl'));
    symlinkSync('/dev/zero', join(f, 'events.jsonl'));
    const v = await cli(['validate', '--folder', f]);
    expect(v.stderr + v.stdout).toContain('events.jsonl is not a regular file');
    expect(v.rc).toBe(2);
    rmSync(join(f, 'protocol.json'));
    symlinkSync('/dev/zero', join(f, 'protocol.json'));
    const n = await cli(['next', '--folder', f, '--participant', 'bob']);
    expect(n.stderr).toBe('error: protocol.json is not a regular file (a FIFO, device or socket); acp reads only regular files\n');
    expect(n.rc).toBe(2);
  });

  test.runIf(LONG || spawnSync('mkfifo', ['--version']).status === 0)('a FIFO as events.jsonl or protocol.json does not hang (append, doctor)', async () => {
    const f = await folder();
    rmSync(join(f, 'events.jsonl'));
    execFileSync('mkfifo', [join(f, 'events.jsonl')]);
    const r = await spawnNode([DIST, 'append', '--folder', f, '--participant', 'bob', '--event', 'deliverable_drafted', '--summary', 's', '--reply-to', '1', '--role', 'supporting', '--doc', NOTES_REF], { timeoutMs: 20_000 });
    expect(r.signal).toBeNull();
    expect(r.stderr).toBe('error: events.jsonl is not a regular file (a FIFO, device or socket); acp reads only regular files\n');
    expect(r.rc).toBe(2);
    expect(existsSync(join(f, '.acp.lock'))).toBe(false);
    rmSync(join(f, 'protocol.json'));
    execFileSync('mkfifo', [join(f, 'protocol.json')]);
    const d = await spawnNode([DIST, 'doctor', '--folder', f], { timeoutMs: 20_000 });
    expect(d.signal).toBeNull();
    expect(d.stdout + d.stderr).toMatch(/(protocol\.json|events\.jsonl) is not a regular file/);
  });

  test('a file larger than it can legitimately be is refused unread', async () => {
    const host = acp.createMemoryHost({ files: { '/f/x.md': 'x'.repeat(2000) } });
    await expect(acp.readCapped(host, '/f/x.md', 1024, 'x.md')).rejects.toThrow('x.md is larger than 1 KiB, more than it can legitimately hold; refusing to read it');
    const node = await acp.createNodeHost();
    const root = tempRoot();
    writeFileSync(join(root, 'big'), 'y'.repeat(5000));
    await expect(acp.readCapped(node, join(root, 'big'), 4096, 'big')).rejects.toThrow('big is larger than 4 KiB');
    expect((await acp.readCapped(node, join(root, 'big'), 5000, 'big')).length).toBe(5000);
  });
});

describe('exit codes that tell the truth', () => {
  test('ENOSPC after the event line is durable: success with a warning, repaired by the next append', async () => {
    const f = await folder();
    const node = await acp.createNodeHost();
    let full = true;
    const host: acp.Host = {
      ...node,
      fs: {
        ...node.fs,
        writeFile: async (path, data, options) => {
          if (full && path.includes('.protocol.json.')) throw acp.fsError('ENOSPC', 'no space left on device');
          return node.fs.writeFile(path, data, options);
        },
      },
    };
    const result = await acp.append(host, f, { participant: 'bob', event: 'deliverable_drafted', summary: 'one', replyTo: 1, role: 'supporting', doc: NOTES_REF });
    expect(result.event.seq).toBe(2);
    expect(result.warnings).toEqual(["seq 2 deliverable_drafted is appended, but protocol.json could not be rewritten (ENOSPC): its cached phase is stale until the next append or `acp doctor --fix`"]);
    expect(readLines(f)).toHaveLength(2);
    full = false;
    const next = await acp.append(host, f, { participant: 'bob', event: 'deliverable_drafted', summary: 'two', replyTo: 1, role: 'supporting', doc: NOTES_REF });
    expect(next.event.seq).toBe(3);
    expect(next.warnings).toBeUndefined();
    expect((await acp.validate(host, f, await acp.createRegistry())).ok).toBe(true);
  });

  test('a seq of 2^53 - 1 is refused instead of repeated', async () => {
    const f = await folder();
    const line = JSON.stringify({ seq: 2 ** 53 - 1, from: 'bob', event: 'deliverable_drafted', at: '2026-01-01T00:00:00Z', summary: 'x', doc: NOTES_REF, reply_to: 1, role: 'supporting' });
    writeFileSync(join(f, 'events.jsonl'), `${readFileSync(join(f, 'events.jsonl'), 'utf8')}${line}\n`);
    const r = await draft(f);
    expect(r.stderr).toBe('error: events.jsonl holds a seq of 2^53 - 1 or more; acp cannot number the next event exactly (seq 9007199254740991)\n');
    expect(r.rc).toBe(2);
  });

  test('an init killed before protocol.json is completed by init --resume', async () => {
    const root = tempRoot();
    const f = join(root, 'collab');
    // A real kill (no cleanup runs) right before protocol.json is renamed into place.
    const script = join(root, 'kill-init.mjs');
    writeFileSync(script, `const acp = await import(${JSON.stringify(DIST_URL)});
const node = await acp.createNodeHost();
const kill = (fs) => ({ ...fs, rename: async (from, to) => { if (to.endsWith('protocol.json')) process.kill(process.pid, 'SIGKILL'); return fs.rename(from, to); } });
// init writes through the confined file system (beneath): the kill goes there too.
const host = { ...node, fs: { ...kill(node.fs), beneath: (bases) => kill(node.fs.beneath(bases)) } };
await acp.runCli({ argv: process.argv.slice(2), stdout: () => {}, stderr: () => {}, color: false }, host);
`);
    const argv = ['--objective', 'Resume me', '--completion', 'Done', '--participant', 'ann', '--participant', 'bob', '--primary-deliverable-type', 'adr'];
    const killed = await spawnNode([script, 'init', '--folder', f, ...argv], { timeoutMs: 20_000 });
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(join(f, 'protocol.json'))).toBe(false);
    expect(existsSync(join(f, 'events.jsonl'))).toBe(true);
    const plain = await cli(['init', '--folder', f, ...argv]);
    expect(plain.stderr).toBe(`error: an interrupted init left files in ${f}; run init again with --resume to complete it\n`);
    expect(plain.rc).toBe(2);
    const resumed = await cli(['init', '--folder', f, '--resume', ...argv]);
    expect(resumed.stderr).toBe('');
    expect(resumed.rc).toBe(0);
    expect((await cli(['validate', '--folder', f])).rc).toBe(0);
    // Only the killed writer's temporary file is left (doctor --fix removes it).
    expect(readdirSync(f).filter((name) => name.startsWith('.') && !/^\.protocol\.json\.\d+\.\w+\.tmp$/.test(name))).toEqual([]);
  });

  test('an init that fails (full disk) leaves none of its files behind', async () => {
    const root = tempRoot();
    const f = join(root, 'collab');
    const node = await acp.createNodeHost();
    const full = (fs: acp.FileSystem): acp.FileSystem => ({
      ...fs,
      writeFile: async (path, data, options) => (path.endsWith('.md') && !path.endsWith('README.md') ? Promise.reject(acp.fsError('ENOSPC', 'no space left on device')) : fs.writeFile(path, data, options)),
    });
    // init writes through the confined file system (beneath): the full disk is there too.
    const host: acp.Host = { ...node, fs: { ...full(node.fs), beneath: (bases) => full(node.fs.beneath!(bases)) } };
    const argv = ['init', '--folder', f, '--objective', 'Full', '--completion', 'Done', '--participant', 'ann', '--participant', 'bob', '--primary-deliverable-type', 'adr'];
    const rc = await acp.runCli({ argv, stdout: () => undefined, stderr: () => undefined, color: false }, host);
    expect(rc).toBe(2);
    expect(readdirSync(f, { recursive: true }).filter((name) => !statSync(join(f, String(name))).isDirectory())).toEqual([]);
  });
});
