// Issue 40: the reference's own test file (shared/reference/acp-python/
// tests/test_collaboration_scripts.py), run unmodified against acp's CLI.
// The test file finds the scripts next to itself (ROOT/scripts/*.py, ROOT =
// its parent's parent); the adapter is a copy of it in a temporary ROOT
// whose scripts/ holds one shim per script that hands acp's command the
// arguments it was given. Run with python3's unittest. Run size
// (test/scale.ts): in `npm test` the shims hand each command to acp's CLI
// in this process (runCli of the bundle dist/lib.mjs, as
// conformance-inproc.test.ts calls it), over a Unix socket, in the shim's
// working directory: what the fourteen tests check is what the commands do
// (exit codes, output, files), and the process edge is checked in `npm test`
// by conformance.test.ts, cli.test.ts and reference-runtimes.test.ts (the
// shims' 73 Node starts were 7 s of CPU); ACP_FULL=1 runs them as
// processes, each shim exec'ing the Node bundle (dist/acp.mjs) and then the
// compiled binary (dist/acp), both built by `npm test`.
//
// Four of the file's eighteen tests check the Python package itself, not
// the CLI (its SKILL.md, README files, references/ and the text of
// wait_for_turn.py): they are left out, by name, below; the other fourteen
// are the ones the issue counts.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCommand, runtimeSpec } from './conformance/replay.ts';
import { python3 } from './python/oracle.ts';
import { referenceDir, referenceMissing, SCRIPTS } from './reference/harness.ts';
import { atLeast } from './scale.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const REPO = resolve(import.meta.dirname, '..');
/** The tests of the file that check the Python package's own files, not the CLI. */
const PACKAGE_TESTS = [
  'test_installable_package_contains_runtime_files',
  'test_installable_package_runtime_files_exist',
  'test_packaged_docs_use_current_repo_owner',
  'test_autonomous_wait_loop_defaults_to_no_timeout',
];
/** The file's tests of the CLI, by name (fourteen). */
const CLI_TESTS = [
  'test_init_creates_v2_protocol_and_deliverable_templates',
  'test_init_requires_custom_deliverable_file_and_checklist',
  'test_deliverable_events_require_role_and_valid_doc',
  'test_deliverable_frozen_requires_sha256_and_matching_file',
  'test_proposal_submitted_requires_primary_deliverable_draft',
  'test_readiness_passed_requires_primary_deliverable_frozen',
  'test_validator_rejects_protocol_without_v2_deliverables',
  'test_validator_rejects_decisions_without_stable_ids_and_reflected_in',
  'test_completed_happy_path_validates',
  'test_validator_rejects_hash_change_after_freeze',
  'test_wait_for_turn_returns_when_participant_is_waiting',
  'test_next_action_owner_waits_during_reviewing',
  'test_wait_for_turn_returns_on_completed_phase',
  'test_external_mode_uses_repo_relative_dir_and_external_refs',
];

/** Where the shims send acp's commands: a program each one exec's, or acp in this process (see the header). */
type Target = { command: string[] } | 'in-process';

/** Where each run sends the commands (`npm test`: in this process; ACP_FULL=1: the bundle on Node and the binary, as processes). */
function targets(): Record<string, Target> {
  if (!atLeast('full')) return { 'in-process': 'in-process' };
  return { node: { command: [process.execPath, join(REPO, 'dist', 'acp.mjs')] }, binary: { command: [join(REPO, 'dist', 'acp')] } };
}

/** A shim that exec's `command <word> --no-config <args>`. */
function execShim(command: string[], word: string): string {
  const argv = JSON.stringify([...command, word, '--no-config']);
  return `import os, sys\nargv = ${argv}\nos.execv(argv[0], argv + sys.argv[1:])\n`;
}

/** A shim that sends `<word> --no-config <args>` and its working directory to `socket` ({@link serveInProcess}) and prints and exits as the reply says. */
function socketShim(socket: string, word: string): string {
  return [
    'import json, os, socket, sys',
    'client = socket.socket(socket.AF_UNIX)',
    `client.connect(${JSON.stringify(socket)})`,
    `client.sendall(json.dumps({"argv": [${JSON.stringify(word)}, "--no-config", *sys.argv[1:]], "cwd": os.getcwd()}).encode())`,
    'client.shutdown(socket.SHUT_WR)',
    'reply = json.loads(b"".join(iter(lambda: client.recv(65536), b"")))',
    'sys.stdout.write(reply["stdout"])',
    'sys.stderr.write(reply["stderr"])',
    'sys.exit(reply["rc"])',
    '',
  ].join('\n');
}

/**
 * acp's CLI in this process (the bundle, as Node users run it) for the
 * shims of {@link socketShim}: one command at a time (each runs in its
 * shim's working directory, which is the process's), a JSON request in and a
 * JSON reply of rc, stdout and stderr out.
 */
async function serveInProcess(socket: string): Promise<Server> {
  const { exec } = runtimeSpec('inproc-dist').runtime;
  let queue: Promise<unknown> = Promise.resolve();
  // Half-open: the shim ends its side once it has sent the request, and still reads the reply.
  const server = createServer({ allowHalfOpen: true }, (connection) => {
    const chunks: Buffer[] = [];
    connection.on('data', (chunk: Buffer) => chunks.push(chunk));
    connection.on('end', () => {
      const { argv, cwd } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { argv: string[]; cwd: string };
      queue = queue.then(async () => {
        const previous = process.cwd();
        try {
          process.chdir(cwd);
          connection.end(JSON.stringify(await exec!(argv, cwd)));
        } catch (error) {
          // The failing unittest then shows what went wrong, instead of a shim waiting for a reply.
          connection.end(JSON.stringify({ rc: 70, stdout: '', stderr: `in-process acp failed: ${(error as Error).stack}\n` }));
        } finally {
          process.chdir(previous);
        }
      });
    });
  });
  await new Promise<void>((listening) => server.listen(socket, listening));
  return server;
}

/** A ROOT with the unmodified test file in tests/ and a shim per script in scripts/ that hands `<acp command> --no-config <args>` to `target`. */
function adapter(target: Target, socket: string): string {
  const root = mkdtempSync(join(tmpdir(), 'acp-upstream-'));
  mkdirSync(join(root, 'tests'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(referenceDir()!, 'tests', 'test_collaboration_scripts.py'), join(root, 'tests', 'test_collaboration_scripts.py'));
  for (const [word, script] of Object.entries(SCRIPTS)) {
    writeFileSync(join(root, 'scripts', `${script}.py`), target === 'in-process' ? socketShim(socket, word) : execShim(target.command, word));
  }
  return root;
}

const missing = referenceMissing();
describe.skipIf(missing !== undefined)(`the reference's own tests pass against acp${missing ? ` (skipped: ${missing})` : ''}`, () => {
  test('the file still has the eighteen tests this adapter names', () => {
    const names = spawnSync(python3(), ['-c', 'import re, sys; print("\\n".join(re.findall(r"def (test_\\w+)", open(sys.argv[1]).read())))', join(referenceDir()!, 'tests', 'test_collaboration_scripts.py')], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(names.sort()).toEqual([...PACKAGE_TESTS, ...CLI_TESTS].sort());
  });

  for (const [name, target] of Object.entries(targets())) test(`${name}: the fourteen CLI tests pass`, async () => {
    const program = target === 'in-process' ? join(REPO, 'dist', 'lib.mjs') : target.command.at(-1)!;
    if (!existsSync(program)) throw new Error(`${program} is missing: run npm run build first`);
    const scratch = mkdtempSync(join(tmpdir(), 'acp-upstream-socket-'));
    const server = target === 'in-process' ? await serveInProcess(join(scratch, 'acp.sock')) : undefined;
    const root = adapter(target, join(scratch, 'acp.sock'));
    try {
      // Not spawnSync: the in-process commands are answered by this process's event loop.
      const run = await runCommand([python3(), '-m', 'unittest', ...CLI_TESTS.map((test) => `test_collaboration_scripts.CollaborationScriptsTest.${test}`)], join(root, 'tests'), { ...process.env, NO_COLOR: '1' }, 300_000);
      expect(run.stderr).toMatch(/^Ran 14 tests in .*\n\nOK\n$/m);
      expect(run.rc).toBe(0);
    } finally {
      server?.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 300_000);
});
