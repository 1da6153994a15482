// The dashboard's model of a collaboration follows the screen, not the log
// (issue 38 item 4): an update reads only the bytes appended since the last
// one and folds them in, and the result is what a fresh full read gives,
// also after the log is rewritten, truncated or caught mid-line; the model
// holds one page of events, and an older page is read from the log.
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import { detailSections, TIMELINE_PAGE } from '../plugins/humans/dashboard/page.ts';
import { LogModel } from '../plugins/humans/log-model.ts';
import { loadSnapshot, withTimelinePage, type Snapshot } from '../plugins/humans/snapshot.ts';
import { dashboard } from './humans/dashboard.ts';
import { cleanup, happyFolder, OWNER, REVIEWER, tempRoot } from './humans/folders.ts';

afterAll(cleanup);

async function sources() {
  return { api: lib.libraryApi(), host: await lib.createNodeHost(), registry: await lib.createRegistry() };
}

/** A snapshot without its reading time (two reads a second apart differ there only). */
function timeless(s: Snapshot): Omit<Snapshot, 'now'> {
  const { now: _now, ...rest } = s;
  return rest;
}

/** `count` proposal/review rounds' events after the log's last seq, as lines a Python-style writer appends. */
function eventLines(folder: string, count: number): string {
  const seq = readFileSync(join(folder, 'events.jsonl'), 'utf8').trimEnd().split('\n').length;
  let lines = '';
  for (let i = 1; i <= count; i++) {
    const [from, event, doc] = (seq + i) % 2 ? [OWNER, 'proposal_submitted', 'proposal.md'] : [REVIEWER, 'review_submitted', 'review.md'];
    lines += `${JSON.stringify({ seq: seq + i, from, event, at: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`, summary: `round ${seq + i}`, doc, reply_to: seq + i - 1 })}\n`;
  }
  return lines;
}

describe('the dashboard log model', () => {
  test('appends are read incrementally and give what a full read gives; a rewrite, a truncation or a torn line is read again in full', async () => {
    const src = await sources();
    const folder = await happyFolder(4);
    const log = join(folder, 'events.jsonl');
    const model = new LogModel(src.api, 5);
    const same = async (): Promise<void> => {
      const kept = await loadSnapshot(src, folder, { model });
      expect(timeless(kept)).toEqual(timeless(await loadSnapshot(src, folder, { keep: 5 })));
    };
    await same();
    for (let i = 0; i < 4; i++) {
      appendFileSync(log, eventLines(folder, 3));
      await same();
    }
    // Nothing appended, then appends: never the whole log again.
    await same();
    expect(model.fullReads).toBe(1);
    // The last line rewritten in place (same length): read again in full.
    const text = readFileSync(log, 'utf8');
    writeFileSync(log, text.replace(/round (\d+)"(?=[^\n]*\n$)/, (_m, n: string) => `ROUND ${n}"`));
    await same();
    expect(model.fullReads).toBe(2);
    // Truncated to its first lines, then grown past its old length with other lines.
    writeFileSync(log, text.split('\n').slice(0, 5).join('\n') + '\n');
    await same();
    appendFileSync(log, eventLines(folder, 30));
    await same();
    expect(model.fullReads).toBe(3);
    // A line caught mid-write, then completed; a bad line in the middle keeps its line number.
    const next = eventLines(folder, 1);
    appendFileSync(log, next.slice(0, 20));
    await same();
    appendFileSync(log, next.slice(20));
    await same();
    appendFileSync(log, 'not json\n');
    appendFileSync(log, eventLines(folder, 2));
    await same();
    const snapshot = await loadSnapshot(src, folder, { model });
    expect(snapshot.logErrors).toEqual([expect.stringMatching(/^events\.jsonl line \d+: invalid JSON/)]);
    expect(snapshot.eventCount).toBe(readFileSync(log, 'utf8').trimEnd().split('\n').length - 1);
  });

  test('the model holds one page of events; an older page is read from the log and is the full read\'s slice', async () => {
    const src = await sources();
    const folder = await happyFolder(4);
    appendFileSync(join(folder, 'events.jsonl'), eventLines(folder, 450));
    const model = new LogModel(src.api, TIMELINE_PAGE);
    const kept = await loadSnapshot(src, folder, { model });
    const full = await loadSnapshot(src, folder);
    expect(full.timeline).toHaveLength(455);
    // The timeline's page and a handful named by the view (the last event, the latest freeze): never the log.
    expect(model.heldEvents()).toBeLessThanOrEqual(TIMELINE_PAGE + 3);
    expect(kept.timeline).toEqual(full.timeline.slice(-TIMELINE_PAGE));
    expect({ ...timeless(kept), timeline: [], timelineFrom: 0 }).toEqual({ ...timeless(full), timeline: [], timelineFrom: 0 });
    const older = await withTimelinePage(src, kept, 250, TIMELINE_PAGE);
    expect(older.timeline).toEqual(full.timeline.slice(50, 250));
    expect(older.timelineFrom).toBe(50);
    const html = detailSections({ id: 'c', snapshot: older }, 'tok', src.api, 250).find((s) => s.id === 'timeline')!.html;
    expect(html).toContain('Events 51–250 of 455');
    expect(html).toContain(`<td class="num">${String(full.timeline[50]!.event.seq)}</td>`);
    // The latest page is served from memory.
    expect(await withTimelinePage(src, kept, 455, TIMELINE_PAGE)).toBe(kept);
    // The dashboard serves the older page.
    const server = await dashboard(join(folder, '..'));
    try {
      const page = await (await fetch(new URL(`/c/collab?token=${server.url.searchParams.get('token')}&upto=250`, server.url))).text();
      expect(page).toContain('Events 51–250 of 455');
      expect(page).toContain(`<td class="num">${String(full.timeline[50]!.event.seq)}</td>`);
    } finally {
      await server.stop();
    }
  });

  test('the dashboard\'s host (the core\'s read-only view) keeps validate\'s checkpoint in the private cache (a change re-validates the appended events only) and still writes nothing under its root', async () => {
    const src = await sources();
    const folder = await happyFolder(4);
    // Past the size below which validate keeps no checkpoint (64 KiB).
    appendFileSync(join(folder, 'events.jsonl'), eventLines(folder, 800));
    const base = await lib.createNodeHost({ checkpointKeyFile: join(tempRoot(), 'state', 'checkpoint.key') });
    const host = src.api.confineHost(base, [join(folder, '..')], { readOnly: true });
    const cache = (await host.cacheDir?.())!;
    expect(cache).toBe(await base.cacheDir?.());
    const verdict = await src.api.validate(host, folder, src.registry);
    expect(readdirSync(cache)).toHaveLength(1);
    expect(await src.api.validate(host, folder, src.registry)).toEqual(verdict);
    expect(verdict).toEqual(await src.api.validate(await lib.createNodeHost({ checkpointKeyFile: null }), folder, src.registry));
    await expect(host.fs.writeFile(join(folder, 'x.md'), 'x')).rejects.toMatchObject({ code: 'EROFS' });
    await expect(host.fs.writeFile(join(cache, '..', '..', 'x.md'), 'x')).rejects.toMatchObject({ code: 'EROFS' });
    await expect(host.fs.mkdir(join(folder, 'd'))).rejects.toMatchObject({ code: 'EROFS' });
    // The cache is the core's writers' (validate), not the view's holder's.
    await expect(host.fs.writeFile(join(cache, 'x'), 'x')).rejects.toMatchObject({ code: 'EROFS' });
  });
});
