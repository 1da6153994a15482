// Paths as the Python tools resolve them (issue 28 class 10), against
// python3: os.path.realpath / Path.resolve() on generated paths through a
// tree of relative, absolute, dangling and looping symbolic links (one
// python3 process), and Path.expanduser() for ~, ~user and HOME variations.
//
// Cases per property: CASES of test/python/oracle.ts, 2,000 in quick (`npm
// test`), 50,000 in full (ACP_FULL=1, `npm run test:all`) and long.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expandUser } from '../acp.ts';
import { createNodeHost } from '../runtime/node-host.ts';
import type { Host } from '../runtime/host.ts';
import { posixNormpath, pyRealpath } from '../runtime/pytext.ts';
import { CASES, rng, runPython } from './python/oracle.ts';
import * as fs from 'node:fs';

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

let root = '';
let host: Host;
beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-pypath-')));
  for (const dir of ['a/b', 'c/d']) mkdirSync(join(root, dir), { recursive: true });
  const links: [string, string][] = [
    ['L1', 'a/b'],
    ['a/L2', '../c'],
    ['L3', join(root, 'a')],
    ['loop1', 'loop2'],
    ['loop2', 'loop1'],
    ['dang', 'missing/x'],
    ['a/b/up', '..'],
    ['self', '.'],
    ['c/L4', '../L1/../..'],
    ['c/d/deep', '../../a/L2/d'],
    ['abs', '/'],
    ['chain', 'L1/up/L2'],
    ['c/dd', '../dang/../b'],
  ];
  for (const [name, target] of links) symlinkSync(target, join(root, name));
  host = await createNodeHost({ syncFs: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const COMPONENTS = ['a', 'b', 'c', 'd', 'L1', 'L2', 'L3', 'L4', 'loop1', 'dang', 'up', 'self', 'deep', 'abs', 'chain', 'dd', '..', '..', '.', '', 'missing', 'x'];
const relativePath = (r: Rand): string => Array.from({ length: Math.floor(r() * 7) }, () => pick(r, COMPONENTS)).join('/') + (r() < 0.1 ? '/' : '');

// Relative to the tree's root, where python3 runs (chdir).
const links = {
  isLink: (p: string) => fs.lstatSync(resolve(root, p), { throwIfNoEntry: false })?.isSymbolicLink() === true,
  readlink: (p: string) => fs.readlinkSync(resolve(root, p)),
};

describe('os.path.realpath and Path.resolve() against Python 3.11', () => {
  test(`${CASES} generated relative paths: os.path.realpath from the tree's root`, () => {
    const r = rng(21);
    const paths = Array.from({ length: CASES }, () => relativePath(r));
    const expected = runPython('out = os.path.realpath(x)', paths, `import os\nos.chdir(${JSON.stringify(root)})`);
    paths.forEach((path, k) => expect(pyRealpath(path, root, links), path).toBe((expected[k] as { ok: string }).ok));
  });

  test(`${CASES / 2} generated absolute paths: the node host resolves --folder as Path.resolve() (a loop is an error)`, () => {
    const r = rng(22);
    const paths = Array.from({ length: CASES / 2 }, () => `${root}/${relativePath(r)}`);
    const expected = runPython('out = str(pathlib.Path(x).resolve())', paths, 'import pathlib');
    paths.forEach((path, k) => {
      const want = expected[k] as { ok?: string; exc?: string; msg?: string };
      let ours: unknown;
      try {
        ours = { ok: host.resolvePath(path) };
      } catch (error) {
        ours = { exc: 'RuntimeError', msg: (error as Error).message.replace(/^ELOOP: /, '') };
      }
      expect(ours, path).toEqual(want.ok !== undefined ? { ok: want.ok } : { exc: want.exc, msg: want.msg });
    });
  });

  test('posixpath.normpath on generated paths', () => {
    const r = rng(23);
    const paths = Array.from({ length: CASES }, () => pick(r, ['', '/', '//', '///']) + relativePath(r));
    const expected = runPython('out = os.path.normpath(x)', paths, 'import os');
    paths.forEach((path, k) => expect(posixNormpath(path), path).toBe((expected[k] as { ok: string }).ok));
  });
});

describe('Path.expanduser() against Python 3.11', () => {
  const cases: [string, string | undefined][] = [];
  for (const path of ['~', '~/x', '~//x/', '~root', '~root/x', '~root//y', '~nosuchuser/x', '~/', 'x/~', '~~', '~ro']) for (const home of [undefined, '', '/h/', '/h', '~h', '/']) cases.push([path, home]);
  test(`${cases.length} paths × HOME values (unset, empty, trailing slash, ~)`, () => {
    const expected = runPython(
      ['env = dict(os.environ)', 'env.pop("HOME", None)', 'if x[1] is not None: env["HOME"] = x[1]', 'os.environ.clear(); os.environ.update(env)', 'out = str(pathlib.Path(x[0]).expanduser())'].join('\n'),
      cases,
      'import os, pathlib',
    );
    cases.forEach(([path, home], k) => {
      const want = expected[k] as { ok?: string; exc?: string; msg?: string };
      let ours: unknown;
      try {
        ours = { ok: expandUser(path, (name) => (name === 'HOME' ? home : undefined), host) };
      } catch (error) {
        ours = { exc: 'RuntimeError', msg: (error as Error).message };
      }
      expect(ours, `${path} HOME=${home}`).toEqual(want.ok !== undefined ? { ok: want.ok } : { exc: want.exc, msg: want.msg });
    });
  });
});
