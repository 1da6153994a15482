// `acp status` reads each file of the folder once (issue 42): validate reads
// first and the view is made from what it read (runtime/folder-read.ts,
// FolderRead), not from a second reading of protocol.json, the log, the
// documents and the deliverables; and a view made from validate's events is
// the view a reading of the log gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import type { FileSystem, Host } from '../runtime/host.ts';
import { LogModel } from '../plugins/humans/log-model.ts';
import { cleanup, freezeStepIndex, happyFolder, STEPS } from './humans/folders.ts';

afterAll(cleanup);

/** A Node host that counts, per path inside `folder`, its whole-file reads and its opens for reading in pieces. */
async function countingHost(folder: string): Promise<{ host: Host; reads: Map<string, number> }> {
  const host = await lib.createNodeHost();
  const reads = new Map<string, number>();
  const count = (path: string): void => {
    if (path.startsWith(`${folder}/`)) reads.set(path.slice(folder.length + 1), (reads.get(path.slice(folder.length + 1)) ?? 0) + 1);
  };
  const fs: FileSystem = {
    ...host.fs,
    readFile: (path, options) => (count(path), host.fs.readFile(path, options)),
    openRead: (path, options) => (count(path), host.fs.openRead!(path, options)),
  };
  return { host: Object.create(host, { fs: { value: fs, enumerable: true } }) as Host, reads };
}

async function status(folder: string, json: boolean): Promise<{ rc: number; stdout: string; writes: number; reads: Map<string, number> }> {
  const { host, reads } = await countingHost(folder);
  let stdout = '';
  let writes = 0;
  const rc = await lib.runCli({ argv: ['status', '--folder', folder, ...(json ? ['--json'] : [])], stdout: (t) => void ((stdout += t), writes++), stderr: () => undefined, color: false }, host);
  return { rc, stdout, writes, reads };
}

describe('acp status reads the folder once', () => {
  test('each file of a frozen and of a completed folder is read once, text and --json; the view is written at once', async () => {
    for (const steps of [freezeStepIndex() + 1, STEPS.length]) {
      const folder = await happyFolder(steps);
      for (const json of [false, true]) {
        const { rc, stdout, writes, reads } = await status(folder, json);
        expect(rc).toBe(0);
        // The whole view in one write (each line its own write before).
        expect(writes).toBe(1);
        expect(stdout).toMatch(json ? /"ok":true/ : /^validate: +passed$/m);
        // What validate and the view both need: read by validate, shown from what it read.
        for (const name of ['protocol.json', 'events.jsonl', 'readiness.md', 'decisions.md', 'deliverables/design-spec.md']) expect([name, reads.get(name)]).toEqual([name, 1]);
        expect([...reads].filter(([, n]) => n > 1)).toEqual([]);
      }
    }
  });

  test("a view made from validate's events is the view a reading of the log gives", async () => {
    const folder = await happyFolder(STEPS.length);
    const api = lib.libraryApi();
    const host = await lib.createNodeHost();
    const { read } = await api.validateRead(host, folder, await lib.createRegistry());
    expect(read.log?.events.length).toBe(STEPS.length + 1);
    const protocol = await api.readProtocol(host, folder);
    for (const keep of [2, Infinity]) {
      const adopted = new LogModel(api, keep).adopt(read.log!, protocol);
      expect(adopted).toEqual(await new LogModel(api, keep).update(host, folder, protocol));
    }
    expect(read.files.has(join(folder, 'protocol.json'))).toBe(true);
  });

  test('a reading host gives each file as first read, and a guarded host stays guarded', async () => {
    const folder = await happyFolder(0);
    const api = lib.libraryApi();
    const guarded = await api.createNodeHost(); // what plugins get: a folder's own files refused
    const reading = api.readingHost(guarded, new Map());
    const readme = join(folder, 'README.md');
    const first = await reading.fs.readFile(readme);
    writeFileSync(readme, 'changed');
    expect(new TextDecoder().decode(await reading.fs.readFile(readme))).toBe(new TextDecoder().decode(first));
    await expect(reading.fs.readFile(join(folder, 'missing.md'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(reading.fs.writeFile(join(folder, 'protocol.json'), '{}')).rejects.toMatchObject({ code: 'own_file' });
    expect(readFileSync(join(folder, 'protocol.json'), 'utf8')).not.toBe('{}');
  });
});
