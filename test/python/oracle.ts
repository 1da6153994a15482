// Python 3.11 as the oracle of the property tests (issue 28): one python3
// process per batch reads one JSON value a line on stdin, runs `body` on it
// (bound to `x`; it sets `out`) and writes one JSON line back. Transport is
// ASCII JSON both ways, so lone surrogates and every code point survive.
//
// Cases per property: 2,000 in quick (`npm test`); issue 28's floor of
// 10,000 is kept, five times over, in full (ACP_FULL=1, `npm run test:all`,
// which CI runs) and long (test/scale.ts).
import { spawnSync } from 'node:child_process';
import { byScale } from '../scale.ts';

export { rng } from '../seeded.ts';


/** Cases per property: 2,000 in quick, 50,000 in full and long (issue 28 asks for at least 10,000). */
export const CASES = byScale({ quick: 2_000, full: 50_000 });

let executable: string | undefined;
/**
 * The interpreter `python3` names, resolved once: `python3` on PATH may be a
 * wrapper (a pyenv shim is a shell script that costs more than Python's own
 * start), and the tests start Python many times.
 */
export function python3(): string {
  executable ??= spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim() || 'python3';
  return executable;
}

/** The python3 3.11 the tests need; they fail (not skip) without it. */
export function pythonVersion(): string {
  return spawnSync(python3(), ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).stdout.trim();
}

/**
 * Run `body` (Python statements over `x`, setting `out`; an exception gives
 * `{"exc": type name, "msg": str(exc)}`) on every input, in one process.
 */
export function runPython(body: string, inputs: readonly unknown[], prelude = ''): unknown[] {
  const script = [
    'import sys, json',
    prelude,
    'def case(x):',
    ...body.split('\n').map((line) => `    ${line}`),
    '    return out',
    'res = []',
    'for line in sys.stdin.buffer.read().decode("ascii").split("\\n")[:-1]:',
    '    x = json.loads(line)',
    '    try: r = {"ok": case(x)}',
    '    except Exception as e: r = {"exc": type(e).__name__, "msg": str(e)}',
    '    res.append(json.dumps(r))',
    'sys.stdout.write("\\n".join(res) + "\\n")',
  ].join('\n');
  const input = inputs.map((x) => `${asciiJson(x)}\n`).join('');
  const run = spawnSync(python3(), ['-c', script], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return run.stdout.split('\n').slice(0, -1).map((line) => JSON.parse(line) as unknown);
}

/** JSON with every non-ASCII code unit escaped (lone surrogates included). */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
