// `acp dashboard` as a process on each runtime (issue 29): Node (dist/acp.mjs),
// Bun (acp.ts), Deno with least privilege (read access to the root and the
// net permission for its address only, no prompt) and the compiled binary.
// Each serves a collaboration, pushes an append by another writer over its
// event stream, and stops with 143 on SIGTERM. Run size (test/scale.ts):
// node and deno in `npm test`, all four under ACP_FULL=1.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import { LOCAL_BIN, REPO_DIR } from './conformance/replay.ts';
import { cleanup, happyFolder, STEPS, tempRoot } from './humans/folders.ts';
import { runtimesOfRun } from './runtime-matrix.ts';

afterAll(cleanup);

const RUNTIMES: Record<string, (root: string) => string[]> = {
  'node dist/acp.mjs': () => [process.execPath, join(REPO_DIR, 'dist', 'acp.mjs')],
  'bun acp.ts': () => [join(LOCAL_BIN, 'bun'), join(REPO_DIR, 'acp.ts')],
  // Least privilege, as docs/humans.md shows it: the root only (--no-config: no config search), and the loopback address.
  'deno acp.ts, least privilege': (root) => [join(LOCAL_BIN, 'deno'), 'run', '--no-prompt', '--quiet', `--allow-read=${root}`, '--allow-net=127.0.0.1', join(REPO_DIR, 'acp.ts'), '--no-config'],
  'the binary dist/acp': () => [join(REPO_DIR, 'dist', 'acp')],
};

/** An event stream read as text: `until(text)` resolves with all read so far once `text` has arrived (bounded by the signal). */
function streamReader(body: ReadableStream<Uint8Array>, signal: AbortSignal): { until(text: string): Promise<string>; close(): void } {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  const close = (): void => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', close, { once: true });
  return {
    until: async (text) => {
      while (!seen.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${JSON.stringify(text)}:\n${seen}`);
        seen += decoder.decode(value, { stream: true });
      }
      return seen;
    },
    close,
  };
}

describe.concurrent('acp dashboard on every runtime', () => {
  for (const label of runtimesOfRun(Object.keys(RUNTIMES), ['node dist/acp.mjs', 'deno acp.ts, least privilege'])) {
    const command = RUNTIMES[label]!;
    test(`${label}: serves, pushes another writer's append, 401 without the token, SIGTERM exits 143`, { timeout: 120_000 }, async () => {
      for (const file of command('/').filter((part) => part.startsWith('/'))) expect(existsSync(file), `${file} is missing (node scripts/build.mjs)`).toBe(true);
      const root = tempRoot('acp-dashboard-rt-');
      const folder = await happyFolder(3, root);
      const child = spawn(command(root)[0]!, [...command(root).slice(1), 'dashboard', '--root', root], { cwd: root, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (t: string) => void (stdout += t));
      child.stderr.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
      const closed = new Promise<number | null>((resolve) => child.on('close', (rc) => resolve(rc)));
      const bound = AbortSignal.timeout(60_000);
      try {
        while (!/^dashboard: \S+$/m.test(stdout)) {
          if (child.exitCode !== null || bound.aborted) throw new Error(`no URL printed:\n${stdout}\n${stderr}`);
          await new Promise((r) => setTimeout(r, 20));
        }
        const url = new URL(/^dashboard: (\S+)$/m.exec(stdout)![1]!);
        expect((await fetch(new URL('/', url))).status).toBe(401);
        expect(await (await fetch(url)).text()).toContain('Choose the storage layer');
        const events = await fetch(new URL(`/events?token=${url.searchParams.get('token')}&c=collab`, url));
        expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
        const stream = streamReader(events.body!, bound);
        try {
          const first = await stream.until('event: detail');
          expect(first).toContain('event: rows');
          await lib.append(await lib.createNodeHost(), folder, STEPS[3]!.event);
          expect(await stream.until('proposal_revised')).toContain('decision_review');
        } finally {
          stream.close();
        }
        child.kill('SIGTERM');
        expect({ rc: await closed, stderr }).toEqual({ rc: 143, stderr: '' });
      } finally {
        child.kill('SIGKILL');
      }
    });
  }
});
