// Signed II (issue 36) through the git store: a cut tail pushed as an
// ordinary commit is refused by the next honest append, which fetches it
// and verifies the log it would extend before signing; nothing is
// committed or pushed. The other doors: test/signed-append.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acp, git, gitSandbox } from './git-harness.ts';

const sandbox = gitSandbox();

describe('a cut tail is refused through the git store', () => {
  it('alice\'s seq 3 cut in one clone and pushed: bob\'s honest append in another is refused, and the remote keeps what it had', async () => {
    const initArgv = (folder: string) => ['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'design-spec', '--sign'];
    const { remote, clones } = await sandbox.setup('signed', initArgv, 2);
    const [one, two] = clones.map((clone) => join(clone, 'collab')) as [string, string];
    for (const seq of [2, 3]) {
      const r = await acp('append', '--git', '--folder', one, '--participant', 'alice', '--event', 'blocked', '--summary', `seq ${seq}`, '--doc', 'conclusion.md', '--reply-to', String(seq - 1));
      expect(r.stderr).toBe('');
    }
    const log = readFileSync(join(one, 'events.jsonl'), 'utf8').split('\n').slice(0, -1);
    writeFileSync(join(one, 'events.jsonl'), log.slice(0, -1).map((l) => `${l}\n`).join(''));
    git(clones[0]!, 'commit', '--quiet', '-am', 'cut the last event');
    git(clones[0]!, 'push', '--quiet', 'origin', 'main');
    const head = git(remote, 'rev-parse', 'main');
    const refused = await acp('append', '--git', '--folder', two, '--participant', 'bob', '--event', 'blocked', '--summary', 'honest', '--doc', 'conclusion.md', '--reply-to', '2');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: the log this append would extend is not what its signers wrote, so nothing was appended: seq 3: missing: events\.jsonl ends at seq 2, but protocol\.json's signed head is seq 3/);
    expect(git(remote, 'rev-parse', 'main')).toBe(head);
  });
});
