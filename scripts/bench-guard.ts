// What the guarded host (runtime/guarded-host.ts, issue 35) costs a
// plugin: the median time of one `writeFile` of a plugin's own file in a
// collaboration folder, through the raw host and through the guarded one
// (the guard resolves the directory, stats the target and the folder's
// protocol.json, and opens the file beneath its directory), and of making
// a command's guarded host. The core's own writes (append, init, the
// transaction) take the unguarded host back and pay nothing.
//
//   bun scripts/bench-guard.ts [--writes 2000] [--rounds 7]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeHost, createRegistry, init } from '../acp.ts';
import { guardHost } from '../runtime/guarded-host.ts';
import { optionOf } from './options.ts';
import { middleRun as median } from './stats.ts';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => Number(optionOf(argv, name) ?? fallback);
const writes = option('writes', 2000);
const rounds = option('rounds', 7);


const work = mkdtempSync(join(tmpdir(), 'acp-bench-guard-'));
try {
  const host = await createNodeHost();
  const folder = join(work, 'collab');
  await init(host, folder, { participants: ['alice', 'bob'], objective: 'o', completion: ['c'], primaryType: 'adr' }, await createRegistry({ config: false }));
  const guarded = guardHost(host);
  const perWrite = async (h: typeof host): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < writes; i++) await h.fs.writeFile(join(folder, 'plugin-output.txt'), `write ${i}\n`);
    return ((performance.now() - started) * 1000) / writes;
  };
  const raw: number[] = [];
  const guard: number[] = [];
  for (let round = 0; round < rounds; round++) {
    raw.push(await perWrite(host));
    guard.push(await perWrite(guarded));
  }
  const made: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (let i = 0; i < writes; i++) guardHost({ ...host });
    made.push(((performance.now() - started) * 1000) / writes);
  }
  const r = median(raw);
  const g = median(guard);
  console.log(`writeFile of a plugin's file in the folder, median of ${rounds} rounds of ${writes}: raw ${r.toFixed(1)} µs, guarded ${g.toFixed(1)} µs (×${(g / r).toFixed(2)}, +${(g - r).toFixed(1)} µs)`);
  console.log(`a command's guarded host made: ${median(made).toFixed(2)} µs`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
