// Issue 40: the reference's own test file (shared/reference/acp-python/
// tests/test_collaboration_scripts.py), run unmodified against acp's CLI.
// The test file finds the scripts next to itself (ROOT/scripts/*.py, ROOT =
// its parent's parent); the adapter is a copy of it in a temporary ROOT
// whose scripts/ holds one shim per script, each exec'ing acp's command with
// the arguments it was given. Run with python3's unittest, on the Node
// bundle (dist/acp.mjs) and the compiled binary (dist/acp), both built by
// `npm test`. Run size (test/scale.ts): `npm test` runs it on the bundle
// only; the binary is the same program compiled, and its process edge is
// checked in `npm test` by conformance.test.ts and reference-runtimes.test.ts
// (6 s of CPU here); ACP_FULL=1 runs it on both.
//
// Four of the file's eighteen tests check the Python package itself, not
// the CLI (its SKILL.md, README files, references/ and the text of
// wait_for_turn.py): they are left out, by name, below; the other fourteen
// are the ones the issue counts.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
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

/** The command that runs acp on each runtime (`npm test`: the bundle on Node only, see the header). */
function runtimes(): Record<string, string[]> {
  const node = [process.execPath, join(REPO, 'dist', 'acp.mjs')];
  return atLeast('full') ? { node, binary: [join(REPO, 'dist', 'acp')] } : { node };
}

/** A ROOT with the unmodified test file in tests/ and a shim per script in scripts/ that runs `command <acp command> --no-config <args>`. */
function adapter(command: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'acp-upstream-'));
  mkdirSync(join(root, 'tests'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(referenceDir()!, 'tests', 'test_collaboration_scripts.py'), join(root, 'tests', 'test_collaboration_scripts.py'));
  for (const [word, script] of Object.entries(SCRIPTS)) {
    const argv = JSON.stringify([...command, word, '--no-config']);
    writeFileSync(join(root, 'scripts', `${script}.py`), `import os, sys\nargv = ${argv}\nos.execv(argv[0], argv + sys.argv[1:])\n`);
  }
  return root;
}

const missing = referenceMissing();
describe.skipIf(missing !== undefined)(`the reference's own tests pass against acp${missing ? ` (skipped: ${missing})` : ''}`, () => {
  test('the file still has the eighteen tests this adapter names', () => {
    const names = spawnSync(python3(), ['-c', 'import re, sys; print("\\n".join(re.findall(r"def (test_\\w+)", open(sys.argv[1]).read())))', join(referenceDir()!, 'tests', 'test_collaboration_scripts.py')], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(names.sort()).toEqual([...PACKAGE_TESTS, ...CLI_TESTS].sort());
  });

  for (const [runtime, command] of Object.entries(runtimes())) test(`${runtime}: the fourteen CLI tests pass`, () => {
    if (!existsSync(command.at(-1)!)) throw new Error(`${command.at(-1)} is missing: run npm run build first`);
    const root = adapter(command);
    try {
      const run = spawnSync(python3(), ['-m', 'unittest', ...CLI_TESTS.map((name) => `test_collaboration_scripts.CollaborationScriptsTest.${name}`)], { cwd: join(root, 'tests'), encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 300_000 });
      expect(run.stderr).toMatch(/^Ran 14 tests in .*\n\nOK\n$/m);
      expect(run.status).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 300_000);
});
