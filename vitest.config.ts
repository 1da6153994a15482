import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import type { Reporter } from 'vitest/reporters';
import { chromiumRequired, findChromium, noChromiumReason } from './test/chromium.ts';
import { nodeRuntimes } from './test/conformance/select.ts';
import { serverTools } from './test/git-servers.ts';
import { NO_PYTHON_REFERENCE, pythonValidator } from './test/python/reference.ts';
import { testScale } from './test/scale.ts';

// One configuration; the run's size (test/scale.ts) chooses how much runs
// (issues 13, 32):
//
//   npm test          quick: every test file, every behaviour at least once.
//                     The conformance scenarios are all replayed in-process
//                     on this Node (conformance-inproc.test.ts) and one
//                     short scenario spawned under each runtime
//                     (conformance.test.ts); the CLI and library tests run
//                     on the machine's Node and the newest other one
//                     (test/node-versions.ts installs it in
//                     test/global-setup.ts); without a Chromium the browser
//                     tests are skipped, as the end of the run says.
//                     127 s on 2 idle cores from a fresh clone, ~226
//                     CPU-seconds (164 user + 62 sys, children included;
//                     261 measured the same way before most files' folders
//                     went to memory, 78 files shared workers and the
//                     reference's tests ran in-process). The goal, 2
//                     minutes, needs ~210 at most. Where it goes, per
//                     file: scripts/test-cpu.mjs.
//   npm run test:all  full (ACP_FULL=1): every scenario in-process under
//                     Bun, Deno and Node 22, 24, 26 too
//                     (conformance-runtimes.test.ts) and a sample of each
//                     file spawned under every runtime, the CLI and library
//                     on Node 20, 22, 24 and 26, the property tests' and
//                     race tests' full counts, and a Chromium required.
//                     CI runs both.
//   npm run test:long long (ACP_LONG=1): the long race, crash and fuzz modes.
//
// Other switches: test/conformance/select.ts (ACP_RUNTIMES,
// ACP_REPLAY_EVERY), test/rpc/helpers.ts (ACP_RPC_RUNTIMES).
//
// No test may depend on the machine's speed: spawned conformance scenarios
// get budgets scaled by a measured start cost (test/timing.ts), other waits
// wait for events, and the timeouts below only bound a hang.
/** After the summary: what this run left out and why (so a green `npm test` does not hide it). */
const leftOut: Reporter = {
  onTestRunEnd() {
    const lines = [`Node versions: the CLI and library tests ran on ${nodeRuntimes().join(', ')} (node: this machine's ${process.version})`];
    if (!findChromium() && !chromiumRequired()) lines.push(`skipped: the browser tests (test/humans-report, test/humans-dashboard): ${noChromiumReason()}`);
    const noServers = serverTools();
    if (noServers && testScale() === 'quick') lines.push(`skipped: the real git server tests (test/git-servers.test.ts): ${noServers}`);
    if (!pythonValidator()) lines.push(`skipped: the Python validator's verdicts on signed folders (test/signing, test/signed-append): ${NO_PYTHON_REFERENCE}`);
    if (testScale() === 'quick') lines.push('quick run: the runtime matrix and the full counts run in `npm run test:all` (test/scale.ts says what each file leaves to it)');
    process.stdout.write(`${lines.map((line) => ` ${line}`).join('\n')}\n`);
  },
};

/**
 * The files that take longest on their own (a minute of wall time or more
 * even on an idle machine: every recorded scenario, or git's processes). On a fresh
 * clone vitest has no durations yet and starts the largest files first; a
 * small file that runs a minute then starts last and finishes alone while
 * the other core idles. These start first; everything else keeps vitest's
 * order (durations once it has them).
 */
const START_FIRST = [
  // test:all only (npm test skips it): every scenario in-process under five runtimes, minutes of CPU.
  'test/conformance-runtimes.test.ts',
  // test:all: thousands of differential cases against the Python reference, and the reference's runs per runtime.
  'test/reference-diff.test.ts',
  'test/reference-runtimes.test.ts',
  'test/conformance-inproc.test.ts',
  // Real git servers and the agents' sandboxes (minutes in test:all); the reference's own tests spawn the CLI often.
  'test/git-servers.test.ts',
  'test/sandboxes.test.ts',
  'test/reference-upstream.test.ts',
  'test/git-recovery.test.ts',
  'test/git.test.ts',
  // In test:all, a sample of each file spawned under every runtime; one scenario per runtime in npm test.
  'test/conformance.test.ts',
  'test/rpc-cli.test.ts',
  'test/skill-agent.test.ts',
];

/**
 * The files that share worker processes (isolate: false): a fresh worker per
 * file costs ~0.25 s of CPU (a Node process, vitest's runtime, and the
 * source modules acp.ts imports evaluated again), and most files never
 * change what the next file in the same process would see. A file belongs
 * here when neither it nor its helpers change process-wide state beyond
 * what they put back before the file ends (tmpdirInScratch's TMPDIR, a
 * command's working directory): no mocks, spies, stubbed globals or fake
 * timers, no process.exitCode, no working directory or environment left
 * changed between tests (gitSandbox's). Every other file, and every new
 * one until it is added here, gets a worker of its own. Each file here
 * passes alone and in a shuffled order (`npx vitest run --project shared
 * --sequence.shuffle.files`).
 */
const SHARED_WORKER = [
  'binary-start', 'conformance-edges', 'conformance-inproc', 'conformance-iv', 'conformance', 'deno', 'docs', 'doors', 'embedding',
  'git-ssh', 'global-options', 'guarded-host', 'humans-dashboard-runtimes', 'humans-dashboard-views', 'humans-deno', 'humans-freeze',
  'humans-log-model', 'humans-log', 'humans-report', 'humans-status', 'mcp', 'node-versions', 'package', 'plugins-runtimes',
  'protocol-names', 'pyargv', 'pydatetime', 'pyjson', 'pypath', 'pytext', 'python-classes', 'reference-diff', 'reference-runtimes',
  'release', 'reliability-iv', 'rpc-abuse', 'rpc-cli', 'rpc-client-runtimes', 'rpc-collab', 'rpc-framing', 'rpc-interop',
  'rpc-pressure', 'rpc-protocol', 'rpc-session', 'rpc-trust', 'runtimes', 'sandboxes', 'scratch', 'sha256', 'signed-append-runtimes',
  'skill', 'start-graph', 'start-path', 'state-machine', 'stop-quiet', 'strict-fuzz', 'strict', 'trust-config', 'turn', 'validate-fast',
  // Their temporary directory in memory for the file's run (tmpdirInScratch), the previous one back when it ends.
  'checkpoint-chain', 'cli', 'crash', 'doctor', 'fastpath', 'hallway', 'hostile', 'humans-dashboard', 'lock-queue', 'plugins', 'races',
  'reference-upstream', 'reliability-ii-log', 'reliability-ii', 'reliability-iii', 'skill-agent', 'strict-doors', 'validate-checkpoint',
].map((name) => `test/${name}.test.ts`);

/**
 * Node 20 reads and parses all of NODE_EXTRA_CA_CERTS (a whole CA bundle on
 * machines behind a TLS-inspecting proxy) at every start, before any user
 * code: ~40 ms of CPU per process, and the suite starts thousands of Node
 * processes, none of which speaks TLS. The tests' processes run without it;
 * the one thing that downloads, `npm ci` of the pinned tools
 * (test/tool-cache.ts), gets it back from ACP_TEST_EXTRA_CA_CERTS.
 * Node 22 and later read the file only when TLS needs it.
 */
function withoutExtraCaCerts(): Record<string, string> {
  const certificates = process.env.NODE_EXTRA_CA_CERTS;
  return certificates ? { NODE_EXTRA_CA_CERTS: '', ACP_TEST_EXTRA_CA_CERTS: certificates } : {};
}

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = START_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return at < 0 ? START_FIRST.length : at;
    };
    const sorted = await super.sort(files);
    return sorted.map((file, at) => ({ file, at })).sort((a, b) => rank(a.file) - rank(b.file) || a.at - b.at).map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    // Each project names its files (a list given here would be merged into both).
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED_WORKER, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SHARED_WORKER] } },
    ],
    globalSetup: ['test/global-setup.ts'],
    // scripts/test-cpu.mjs: each file's CPU, measured from inside its worker.
    setupFiles: process.env.ACP_TEST_CPU_LOG ? ['test/cpu-probe.ts'] : [],
    reporters: ['default', leftOut],
    sequence: { sequencer: LongFilesFirst },
    pool: 'forks',
    // The built bundle (dist/lib.mjs and its chunks) loads through Node's own
    // module loader, not vitest's transform: it is plain JavaScript, and
    // transformed, every dynamic import inside it goes through vitest's
    // resolver again (the in-process conformance replay took twice the CPU).
    server: { deps: { external: [/\/dist\//] } },
    // A bound on a hang, not an expected duration (conformance tests set
    // their own, from the measured start cost of their runtime).
    testTimeout: 300_000,
    hookTimeout: 120_000,
    // Much of the suite waits (on spawned processes, servers' timeouts), so
    // one file more than there are cores (vitest's default is one fewer):
    // on two cores the two CPU-bound conformance files do not hold up the rest.
    maxWorkers: availableParallelism() + 1,
    // describe.concurrent tests inside one file run up to this many at once.
    maxConcurrency: Math.max(2, availableParallelism()),
    // The append checkpoint's key (runtime/node-host.ts) goes to a
    // scratch state directory, not the home of whoever runs the tests.
    env: { XDG_STATE_HOME: join(tmpdir(), 'acp-test-state'), ...withoutExtraCaCerts() },
    // expect.poll waits for an event; its default of 1 s is a speed
    // assumption that a loaded machine breaks. This only bounds a hang.
    expect: { poll: { timeout: 20_000 } },
  },
});
