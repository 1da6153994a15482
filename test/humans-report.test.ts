// `acp report` (issue 15): one self-contained HTML file. The document is
// checked as text, then loaded from disk by a real browser (headless
// Chromium: test/chromium.ts finds it; .ci/run installs Debian's) whose DOM
// is checked and whose screenshot is saved to dist/reports/humans-report.png.
// Without a Chromium, `npm test` skips that one test and says why;
// `npm run test:all` fails.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import { chromiumRequired, findChromium, noChromiumReason } from './chromium.ts';
import { REPO_DIR } from './conformance/replay.ts';
import { acp } from './humans/context.ts';
import { cleanup, happyFolder, OWNER, PRIMARY, pythonFolder, STEPS, tempRoot } from './humans/folders.ts';

afterAll(cleanup);

const CHROMIUM = findChromium();
/** Where the browser test leaves its screenshot (dist/ is build output, git-ignored). */
export const SCREENSHOT = join(REPO_DIR, 'dist', 'reports', 'humans-report.png');

const SECTIONS = ['summary', 'phases', 'timeline', 'decisions', 'gates', 'deliverable', 'conclusion', 'validation'];
const INJECTED = "<script>document.documentElement.setAttribute('data-pwned','summary')</script>";

/**
 * A collaboration in decision_review whose texts attack the report: a
 * script in an event summary, raw HTML, an event handler, a javascript: link
 * and a remote image in the Markdown documents.
 */
async function hostileFolder(): Promise<string> {
  const folder = await happyFolder(4);
  const host = await lib.createNodeHost();
  const decisions = readFileSync(join(folder, 'decisions.md'), 'utf8');
  writeFileSync(
    join(folder, 'decisions.md'),
    `${decisions}\nRaw: <script>document.documentElement.setAttribute('data-pwned','markdown')</script>\n\n<img src=x onerror="document.documentElement.setAttribute('data-pwned','img')">\n\n[click](javascript:document.documentElement.setAttribute('data-pwned','link'))\n\n![tracker](http://127.0.0.1:9/pixel.png)\n`,
  );
  const spec = readFileSync(join(folder, PRIMARY), 'utf8');
  writeFileSync(join(folder, PRIMARY), spec.replace('Content for Problem.', 'Content for Problem. <b onmouseover="x()">bold?</b> & `code <i>`'));
  await lib.append(host, folder, { participant: OWNER, event: 'deliverable_drafted', summary: `Redraft ${INJECTED}`, doc: PRIMARY, role: 'primary', replyTo: 5 });
  return folder;
}

/** Run Chromium headless on a file with a fresh profile; resolves with its stdout (bounded). */
function chromium(args: string[], file: string): Promise<{ rc: number | null; stdout: string; stderr: string }> {
  const profile = join(tempRoot('acp-chromium-'), 'profile');
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`];
  return new Promise((resolve) => {
    const child = spawn(CHROMIUM!, [...flags, ...args, pathToFileURL(file).href], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => void (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (rc) => {
      clearTimeout(timer);
      resolve({ rc, stdout, stderr });
    });
  });
}

describe('acp report', () => {
  test('writes one self-contained file and prints its path and size; --json; --out - prints it', async () => {
    const folder = await happyFolder(STEPS.length);
    const out = join(tempRoot(), 'report.html');
    const r = await acp(['report', '--folder', folder, '--out', out]);
    expect(r.stderr).toBe('');
    const html = readFileSync(out, 'utf8');
    expect(r.stdout).toBe(`report: ${out} (${Buffer.byteLength(html)} bytes)\n`);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    // Nothing to fetch: no script, stylesheet, font or image from anywhere.
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\((?!#)/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'`);
    for (const id of SECTIONS) expect(html).toContain(`id="${id}"`);
    expect(html).toContain('<span class="badge ok">hash matches</span>');
    expect(html).toContain('<span class="badge outcome-proceed">proceed</span> Implement the design.');
    expect(html).toMatch(/<g class="phase visited current" data-phase="completed" aria-current="step">/);
    expect(html).toContain('@media print');
    const json = await acp(['report', '--folder', folder, '--out', out, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, exitCode: 0, path: out, bytes: Buffer.byteLength(html) });
    const stdout = await acp(['report', '--folder', folder, '--out', '-']);
    expect(stdout.stdout.replace(/at \S+Z from/, '')).toBe(`${html}\n`.replace(/at \S+Z from/, ''));
  });

  test('untrusted text is escaped everywhere: summaries, raw HTML in Markdown, handlers, links, images', async () => {
    const folder = await hostileFolder();
    const r = await acp(['report', '--folder', folder, '--out', '-']);
    expect(r.rc).toBe(0);
    const html = r.stdout;
    // No element carries a handler or a script link (the attacks are there only as escaped text).
    expect(html).not.toMatch(/<script|<img|<[a-z][^>]*\son\w+=|href="javascript:/i);
    expect(html).toContain(`<p>&lt;img src=x onerror=&quot;document.documentElement.setAttribute('data-pwned','img')&quot;&gt;</p>`);
    expect(html).toContain("<p>[click](javascript:document.documentElement.setAttribute('data-pwned','link'))</p>");
    expect(html).toContain('Redraft &lt;script&gt;document.documentElement.setAttribute(&#39;data-pwned&#39;,&#39;summary&#39;)&lt;/script&gt;');
    expect(html).toContain('&lt;b onmouseover=&quot;x()&quot;&gt;bold?&lt;/b&gt; &amp; <code>code &lt;i&gt;</code>');
    expect(html).toContain('<span class="image-ref">[image: tracker — http://127.0.0.1:9/pixel.png]</span>');
  });

  test('a folder written by the Python tools (recorded scenario 1087): rendered with its verdict', async () => {
    const { folder, protocol } = await pythonFolder(1087);
    const r = await acp(['report', '--folder', folder, '--out', '-']);
    expect(r.rc).toBe(0);
    expect(r.stdout).toContain('<span class="badge ok">validation passed</span>');
    expect(r.stdout).toContain(`data-phase="${protocol.currentPhase}" aria-current="step"`);
  });

  test.skipIf(!CHROMIUM && !chromiumRequired())('in a real browser: sections present, current phase highlighted, injected script not run; screenshot saved', async () => {
    expect(CHROMIUM, noChromiumReason()).toBeDefined();
    const folder = await hostileFolder();
    const file = join(tempRoot(), 'report.html');
    expect((await acp(['report', '--folder', folder, '--out', file])).rc).toBe(0);
    const dump = await chromium(['--dump-dom'], file);
    expect(dump.rc, dump.stderr.slice(-2000)).toBe(0);
    const dom = dump.stdout;
    for (const id of SECTIONS) expect(dom).toMatch(new RegExp(`<(section|header) id="${id}"`));
    expect(dom).toMatch(/<g class="phase visited current" data-phase="decision_review" aria-current="step">/);
    expect(dom.match(/<g class="phase[^"]*current/g)).toHaveLength(1);
    // The script is text in the timeline, and nothing ran it (nor a handler or link).
    expect(dom).not.toMatch(/<script/i);
    expect(dom).not.toContain('data-pwned=');
    expect(dom).toContain('Redraft &lt;script&gt;document.documentElement.setAttribute(\'data-pwned\',\'summary\')&lt;/script&gt;');
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    const shot = await chromium(['--window-size=1200,2200', '--hide-scrollbars', `--screenshot=${SCREENSHOT}`], file);
    expect(shot.rc, shot.stderr.slice(-2000)).toBe(0);
    expect(readFileSync(SCREENSHOT).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(20_000);
  });
});
