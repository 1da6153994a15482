// Runs hostile CLI cases for test/hostile.test.ts in a child process, so that
// a case that hangs (a runaway regular expression blocks the event loop) can
// be killed by the parent's watchdog instead of freezing the test runner.
//
//   node hostile-executor.mjs <dist/lib.mjs file URL> <scratch dir>
//
// Messages on the IPC channel: {id, files, argv} in, {id, rc, stdout, stderr,
// changed, ms} out. `files` maps paths relative to a fresh ROOT to
// {text} | {base64} | {symlink} | {dir} | {big: {prefix, unit, count, suffix}}
// (big files are built here, not sent); `<ROOT>` in argv becomes ROOT.
// `changed` lists the paths (under ROOT) whose bytes, link target or kind
// differ after the run (lock files excluded: breaking a dead writer's lock is
// the one change a refused append makes).
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [distUrl, scratch] = process.argv.slice(2);
const { runCli } = await import(distUrl);
let counter = 0;

function materialise(root, files) {
  mkdirSync(root, { recursive: true });
  for (const [relative, spec] of Object.entries(files)) {
    const path = join(root, relative);
    try {
      mkdirSync(dirname(path), { recursive: true });
      if (spec.dir) mkdirSync(path, { recursive: true });
      else if (spec.symlink !== undefined) symlinkSync(spec.symlink.replaceAll('<ROOT>', root), path);
      else if (spec.big) writeFileSync(path, spec.big.prefix + spec.big.unit.repeat(spec.big.count) + spec.big.suffix);
      else writeFileSync(path, spec.base64 !== undefined ? Buffer.from(spec.base64, 'base64') : spec.text);
    } catch {
      // An entry under a path that another mutation made a file: left out.
    }
  }
}

function snapshot(root) {
  const out = new Map();
  const walk = (dir, prefix) => {
    let names;
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const key = prefix + name;
      if (name.startsWith('.acp.lock')) continue;
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) out.set(key, `link:${readlinkSync(path)}`);
      else if (stat.isDirectory()) {
        out.set(key, 'dir');
        walk(path, `${key}/`);
      } else out.set(key, createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(root, '');
  return out;
}

process.on('message', async ({ id, files, argv }) => {
  const root = join(scratch, `case-${process.pid}-${counter++}`);
  try {
    materialise(root, files);
    const before = snapshot(root);
    let stdout = '';
    let stderr = '';
    const started = performance.now();
    const rc = await runCli({ argv: argv.map((a) => a.replaceAll('<ROOT>', root)), stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), color: false });
    const ms = performance.now() - started;
    const after = snapshot(root);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
    const clip = (text) => (text.length > 4000 ? `${text.slice(0, 4000)}…` : text);
    process.send({ id, rc, stdout: clip(stdout.replaceAll(root, '<ROOT>')), stderr: clip(stderr.replaceAll(root, '<ROOT>')), changed, ms });
  } catch (error) {
    process.send({ id, rc: -1, stdout: '', stderr: `executor: ${error?.stack ?? error}`, changed: [], ms: 0 });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
process.send({ ready: true });
