// Stopping is not an error (issue 39): Ctrl-C and SIGTERM are the normal way
// to end `log --follow`, `dashboard`, `serve`, `mcp` and `wait`, so each
// exits 130 / 143 as the README's table says, with no `error:` line. Run as
// processes (dist/acp.mjs): the signal is sent once the command shows it has
// started (its first output, or for `wait` its folder watch: an inotify
// descriptor in /proc), so the test does not depend on how fast it starts.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { REPO_DIR } from './conformance/replay.ts';
import { atLeast } from './scale.ts';
import { cleanup, happyFolder, REVIEWER } from './humans/folders.ts';

afterAll(cleanup);

const CLI = join(REPO_DIR, 'dist', 'acp.mjs');

/** Whether the process watches a folder (an inotify descriptor is open): `wait` has reached its wait. */
function watching(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === 'anon_inode:inotify';
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** A long-running command: its arguments (given a folder where it is not bob's turn), and what shows it has started waiting. */
interface Stoppable {
  argv(folder: string): string[];
  started(out: { stdout: string; stderr: string; pid: number }): boolean;
  /** Written to its stdin first (MCP: a request to answer). */
  input?: string;
}

const MCP_INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } })}\n`;

const COMMANDS: Record<string, Stoppable> = {
  'log --follow': { argv: (folder) => ['log', '--folder', folder, '--follow'], started: ({ stdout }) => stdout.includes('seq 3 ') },
  dashboard: { argv: (folder) => ['dashboard', '--root', join(folder, '..')], started: ({ stdout }) => stdout.includes('Ctrl-C stops') },
  'serve --stdio': { argv: (folder) => ['serve', '--root', join(folder, '..'), '--stdio', '--no-config'], started: ({ stderr }) => stderr.includes('acp serve: serving') },
  mcp: { argv: (folder) => ['mcp', '--root', join(folder, '..')], started: ({ stdout }) => stdout.includes('"id":1'), input: MCP_INITIALIZE },
  wait: { argv: (folder) => ['wait', '--folder', folder, '--participant', REVIEWER, '--timeout', '0'], started: ({ pid }) => watching(pid) },
};

describe.skipIf(process.platform !== 'linux')('stopping is quiet', () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    // Both signals in the full run; the quick one sends SIGTERM (SIGINT takes the same path, and log --follow's is in humans-log).
    for (const [signal, code] of atLeast('full') ? ([['SIGINT', 130], ['SIGTERM', 143]] as const) : ([['SIGTERM', 143]] as const)) {
      test(`${name}: ${signal} exits ${code} without an error line`, { timeout: 60_000 }, async () => {
        expect(existsSync(CLI), `${CLI} missing (npm run build)`).toBe(true);
        const folder = await happyFolder(3);
        const child = spawn(process.execPath, [CLI, ...command.argv(folder)], { cwd: folder, stdio: ['pipe', 'pipe', 'pipe'] });
        const out = { stdout: '', stderr: '', pid: child.pid! };
        child.stdout.setEncoding('utf8').on('data', (t: string) => void (out.stdout += t));
        child.stderr.setEncoding('utf8').on('data', (t: string) => void (out.stderr += t));
        if (command.input) child.stdin.write(command.input);
        const closed = new Promise<number | null>((resolve) => child.on('close', (rc) => resolve(rc)));
        try {
          await expect.poll(() => command.started(out), { timeout: 30_000, interval: 20 }).toBe(true);
          child.kill(signal);
          const rc = await closed;
          // serve says where it serves on stderr; what matters is that no error is reported.
          expect({ rc, errors: out.stderr.match(/^error:.*$/gm) }).toEqual({ rc: code, errors: null });
        } finally {
          child.kill('SIGKILL');
        }
      });
    }
  }
});
