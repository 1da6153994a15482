// task/status's cached verdict follows edits of the documents themselves,
// not only new events: a deliverable edited (or broken) under deliverables/
// changes validate's answer, and the served status must say so at once —
// long before the cache's one-second safety net would expire.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { Collab } from '../plugins/rpc/collab.ts';
import { makeRoot } from './rpc/helpers.ts';

const MEMO = 'deliverables/adr.md';

describe('task/status cache', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const fn of cleanup.splice(0)) fn();
  });

  test('an edit under deliverables/ changes the verdict within a fraction of the safety-net age', async () => {
    const root = await makeRoot(['demo']);
    const folder = join(root, 'demo');
    const host = await acp.createNodeHost();
    const registry = await acp.createRegistry();
    // Declare the primary deliverable: from then on validate checks its sections.
    await acp.append(host, folder, { participant: 'alice', event: 'deliverable_drafted', summary: 'draft', replyTo: 1, doc: MEMO, role: 'primary' }, registry);
    // A one-hour poll: only change notifications can invalidate the cache early.
    const collab = new Collab(acp, host, registry, 'demo', folder, 3_600_000);
    cleanup.push(() => collab.close(), () => rmSync(root, { recursive: true, force: true }));
    await collab.ready;
    const before = await collab.status();
    expect(before.validation).toEqual({ ok: true, errors: [], warnings: [] });

    writeFileSync(join(folder, MEMO), '# Not an ADR any more\n');
    const edited = Date.now();
    // The cache's safety net is 1 s: an answer inside 500 ms can only come from the watch on deliverables/.
    await expect
      .poll(async () => (await collab.status()).validation.errors.includes('primary deliverable missing required section: Decision'), { timeout: 500, interval: 20 })
      .toBe(true);
    expect(Date.now() - edited).toBeLessThan(1000);
  });
});
