// `acp report` (issues 15 and 29): one self-contained HTML file. The
// document is checked as text, then loaded from disk by a real browser
// (headless Chromium, Debian's package: .ci/run installs it) whose DOM is
// checked and whose screenshots are saved to dist/reports/.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import { chromiumRequired, findChromium, noChromiumReason } from './chromium.ts';
import { REPO_DIR } from './conformance/replay.ts';
import { browserTestName, launchBrowser, SKIP_BROWSER } from './humans/browser.ts';
import { acp } from './humans/context.ts';
import { cleanup, happyFolder, OWNER, PRIMARY, pythonFolder, REVIEWER, STEPS, tempRoot } from './humans/folders.ts';

afterAll(cleanup);

/** Where the browser tests leave their screenshots (dist/ is build output, git-ignored). */
export const SCREENSHOTS = join(REPO_DIR, 'dist', 'reports');
export const SCREENSHOT = join(SCREENSHOTS, 'humans-report.png');

const SECTIONS = ['summary', 'phases', 'timeline', 'decisions', 'gates', 'deliverable', 'conclusion', 'validation'];
const INJECTED = "<script>document.documentElement.setAttribute('data-pwned','summary')</script>";
/** A right-to-left override ("evil" would display as "live") and a raw control character. */
const RTL = '\u202eevil\u0007';

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
  await lib.append(host, folder, { participant: OWNER, event: 'deliverable_drafted', summary: `Redraft ${INJECTED} ${RTL}`, doc: PRIMARY, role: 'primary', replyTo: 5 });
  // The objective (title and header) and decisions.md carry the override too.
  writeFileSync(join(folder, 'decisions.md'), `${readFileSync(join(folder, 'decisions.md'), 'utf8')}\nNote: ${RTL}\n`);
  const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
  writeFileSync(join(folder, 'protocol.json'), lib.formatProtocolJson({ ...protocol, objective: `${protocol.objective} ${RTL}` }));
  return folder;
}

/** A collaboration bob blocked at seq 4, with a reason. */
async function blockedFolder(): Promise<string> {
  const folder = await happyFolder(2);
  await lib.append(await lib.createNodeHost(), folder, { participant: REVIEWER, event: 'blocked', summary: 'Waiting on legal review', replyTo: 3 });
  return folder;
}

/** A computed style property of the element (the test runs without the DOM's types). */
function computed(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((element, name) => (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(element)[name]!, property);
}

/** A full-page screenshot, checked to be a PNG of some substance. */
async function shoot(page: Page, file: string): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  expect(readFileSync(file).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(statSync(file).size).toBeGreaterThan(20_000);
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
    // The same document but for when it was written: the generation time and the durations counted up to it.
    const timeless = (text: string): string => text.replace(/at \S+Z from/, '').replace(/(data-since="[^"]*">)[^<]*/g, '$1');
    expect(timeless(stdout.stdout)).toBe(timeless(`${html}\n`));
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
    expect(html).toContain('Redraft &lt;script&gt;document.documentElement.setAttribute(&#39;data-pwned&#39;,&#39;summary&#39;)&lt;/script&gt; \\u202eevil\\u0007');
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0007]/);
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

  test('the header tells the truth: in progress is not blocked; whose turn; a blocked one says why', async () => {
    const ongoing = (await acp(['report', '--folder', await happyFolder(3), '--out', '-'])).stdout;
    const outcome = /<dd id="outcome">(.*?)<\/dd>/.exec(ongoing)![1]!;
    expect(outcome).toContain('in progress');
    expect(outcome).not.toMatch(/blocked|badge bad/);
    expect(ongoing).toMatch(/<dd id="turn"><span class="participant">alice<\/span> <span class="muted">for <span class="elapsed" data-since="[^"]+">\d+s<\/span><\/span><\/dd>/);
    const blocked = (await acp(['report', '--folder', await blockedFolder(), '--out', '-'])).stdout;
    expect(/<dd id="outcome">(.*?)<\/dd>/.exec(blocked)![1]).toMatch(/^<span class="badge outcome-blocked">blocked<\/span> <span class="reason">Waiting on legal review<\/span> <span class="muted">\(bob, seq 4, /);
    expect(blocked).toContain('<dd id="turn"><span class="muted">nobody (collaboration blocked)</span></dd>');
  });

  test('fresh, in progress, frozen: the conclusion says "not concluded yet", never "blocked"; the header names what is frozen', async () => {
    const frozenAt = STEPS.findIndex((s) => s.event.event === 'deliverable_frozen') + 1;
    for (const steps of [0, 3, frozenAt]) {
      const html = (await acp(['report', '--folder', await happyFolder(steps), '--out', '-'])).stdout;
      const conclusion = /<section id="conclusion">(.*?)<\/section>/s.exec(html)![1]!;
      expect({ steps, conclusion }).toEqual({ steps, conclusion: expect.stringContaining('not concluded yet') });
      expect({ steps, blocked: /blocked/i.test(conclusion) }).toEqual({ steps, blocked: false });
      const frozen = /<dd id="frozen">(.*?)<\/dd>/.exec(html)?.[1];
      expect({ steps, frozen }).toEqual({ steps, frozen: steps === frozenAt ? expect.stringMatching(new RegExp(`^<code>${PRIMARY}</code> <code title="[0-9a-f]{64}">[0-9a-f]{12}</code>$`)) : '<span class="muted">nothing yet</span>' });
    }
    const done = (await acp(['report', '--folder', await happyFolder(STEPS.length), '--out', '-'])).stdout;
    expect(/<section id="conclusion">(.*?)<\/section>/s.exec(done)![1]).toContain('Implement the design.');
  });

  test('one outline: no repeated headings, documents below the sections, field lines apart, no local path', async () => {
    const folder = await happyFolder(STEPS.length);
    const html = (await acp(['report', '--folder', folder, '--out', '-'])).stdout;
    const decisions = /<section id="decisions">(.*?)<\/section>/s.exec(html)![1]!;
    expect(decisions.match(/>Decisions</g)).toHaveLength(1);
    expect(/<section id="conclusion">(.*?)<\/section>/s.exec(html)![1]!.match(/>Conclusion</g)).toHaveLength(1);
    const deliverable = /<article class="doc deliverable">(.*?)<\/article>/s.exec(html)![1]!;
    expect(deliverable).not.toMatch(/<h[12]/);
    expect(deliverable).toContain('<h3>Design Spec</h3>');
    expect(deliverable).toContain('<p>Deliverable type: <code>design-spec</code><br>\nStatus: Frozen</p>');
    expect(html).not.toContain(folder);
    expect(html).toContain('from the collaboration folder <code>collab</code>.</footer>');
  });

  test(browserTestName('in a real browser: sections, current phase, in-progress and blocked headers, inert script and RTL override; screenshots'), { skip: SKIP_BROWSER, timeout: 120_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      const open = async (folder: string, name: string): Promise<void> => {
        const file = join(tempRoot(), name);
        expect((await acp(['report', '--folder', folder, '--out', file])).rc).toBe(0);
        await page.goto(pathToFileURL(file).href);
      };
      await open(await hostileFolder(), 'hostile.html');
      for (const id of SECTIONS) expect(await page.locator(`#${id}`).count()).toBe(1);
      expect(await page.locator('g.phase.current').getAttribute('data-phase')).toBe('decision_review');
      // The script is text in the timeline, and nothing ran it (nor a handler or link).
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('html').getAttribute('data-pwned')).toBeNull();
      expect(await page.locator('#timeline td.summary').last().textContent()).toBe("Redraft <script>document.documentElement.setAttribute('data-pwned','summary')</script> \\u202eevil\\u0007 (deliverables/design-spec.md)");
      // The override and the bell are shown as escapes wherever the text appears: nothing is reordered.
      for (const selector of ['title', 'h1', '#timeline td.summary >> nth=-1', '#decisions .doc']) expect(await page.locator(selector).first().textContent()).toContain('\\u202eevil\\u0007');
      expect(await page.locator('html').textContent()).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0007]/);
      await shoot(page, SCREENSHOT);

      await open(await happyFolder(3), 'in-progress.html');
      expect(await page.locator('#outcome').textContent()).toBe('in progress not concluded yet');
      expect(await computed(page.locator('#outcome .badge'), 'color')).toBe('rgb(9, 105, 218)');
      expect(await page.locator('#turn').textContent()).toMatch(/^alice for \d+s$/);
      expect(await computed(page.locator('g.phase.current rect'), 'fill')).toBe('rgb(9, 105, 218)');
      await shoot(page, join(SCREENSHOTS, 'humans-report-in-progress.png'));

      await open(await blockedFolder(), 'blocked.html');
      expect(await page.locator('#outcome').textContent()).toMatch(/^blocked Waiting on legal review \(bob, seq 4, \S+\)$/);
      expect(await computed(page.locator('#outcome .badge'), 'color')).toBe('rgb(207, 34, 46)');
      expect(await computed(page.locator('g.phase.current rect'), 'fill')).toBe('rgb(207, 34, 46)');
      expect(await page.locator('#turn').textContent()).toBe('nobody (collaboration blocked)');
      await shoot(page, join(SCREENSHOTS, 'humans-report-blocked.png'));
    } finally {
      await browser.close();
    }
  });
});
