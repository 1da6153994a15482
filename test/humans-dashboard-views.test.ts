// The dashboard's views stay bounded and honest (issues 38 and 39): updates
// carry the changed parts (a row, a section), not the whole report; a
// stream's buffer bound includes the message being sent; a long timeline is
// paged and an oversized section replaced by a note; the index lists every
// collaboration (paged, counted, with a warning when the scan stopped); the
// Host header must be the dashboard's own address or a name the user gave;
// a collaboration deleted while watched shows as gone.
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import { Board } from '../plugins/humans/dashboard/board.ts';
import { detailSections, PAGE_SIZE, renderIndexPage, TIMELINE_PAGE } from '../plugins/humans/dashboard/page.ts';
import { allowedHosts, writeBounded } from '../plugins/humans/dashboard/server.ts';
import { loadSnapshot } from '../plugins/humans/snapshot.ts';
import { REPO_DIR } from './conformance/replay.ts';
import { browserTestName, launchBrowser, SKIP_BROWSER } from './humans/browser.ts';
import { acp } from './humans/context.ts';
import { byScale } from './scale.ts';
import { dashboard } from './humans/dashboard.ts';
import { cleanup, happyFolder, REVIEWER, STEPS, tempRoot } from './humans/folders.ts';

afterAll(cleanup);

/** Where the browser tests leave their screenshots (dist/ is build output, git-ignored). */
const SCREENSHOTS = join(REPO_DIR, 'dist', 'reports');

/** A full-page screenshot, checked to be a PNG. */
async function shoot(page: Page, file: string): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  expect(statSync(file).size).toBeGreaterThan(10_000);
}

/** GET `path` with a chosen Host header (fetch does not let one set it). */
function getWithHost(url: URL, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (t: string) => void (body += t)).on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject).end();
  });
}

/** An event stream read as text until `until` returns true for what has arrived (bounded by the signal). */
async function readStream(url: URL, until: (seen: string) => boolean, signal = AbortSignal.timeout(20_000)): Promise<{ seen: string; more(until: (seen: string) => boolean): Promise<string>; close(): void }> {
  const res = await fetch(url, { signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  const more = async (done: (text: string) => boolean): Promise<string> => {
    const start = seen.length;
    while (!done(seen.slice(start))) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error(`stream ended:\n${seen}`);
      seen += decoder.decode(value, { stream: true });
    }
    return seen.slice(start);
  };
  await more(until);
  return { seen, more, close: () => void reader.cancel().catch(() => undefined) };
}

/** The events of a stream's text: name and parsed JSON data. */
function events(text: string): { event: string; data: { id?: string; html?: string } }[] {
  return [...text.matchAll(/^event: (\S+)\ndata: (.*)$/gm)].map((m) => ({ event: m[1]!, data: JSON.parse(m[2]!) }));
}

describe('the dashboard\'s bounded views', () => {
  test('an update carries the changed row and sections only; a stream opens with its page of rows and the live view', async () => {
    const root = tempRoot('acp-dashboard-');
    const alpha = await happyFolder(3, join(root, 'alpha'));
    await happyFolder(2, join(root, 'beta'));
    const server = await dashboard(root);
    try {
      const token = server.url.searchParams.get('token')!;
      const stream = await readStream(new URL(`/events?token=${token}&c=alpha%2Fcollab`, server.url), (seen) => seen.includes('"id":"validation"'));
      const opened = events(stream.seen);
      expect(opened.map((e) => e.event)).toEqual(['rows', ...Array(8).fill('detail')]);
      expect(opened.slice(1).map((e) => e.data.id)).toEqual(['summary', 'phases', 'timeline', 'decisions', 'gates', 'deliverable', 'conclusion', 'validation']);
      await lib.append(await lib.createNodeHost(), alpha, STEPS[3]!.event);
      const update = events(await stream.more((text) => text.includes('"id":"timeline"')));
      stream.close();
      expect(update[0]).toMatchObject({ event: 'row', data: { id: 'alpha/collab' } });
      expect(update[0]!.data.html).toContain('decision_review');
      const sections = update.filter((e) => e.event === 'detail').map((e) => e.data.id);
      // The documents did not change: they are not sent again; the list did not change: no `rows`.
      expect(sections).toEqual(expect.arrayContaining(['summary', 'phases', 'timeline']));
      expect(sections).not.toContain('decisions');
      expect(update.map((e) => e.event)).not.toContain('rows');
    } finally {
      await server.stop();
    }
  });

  test('a page that stops reading is dropped when its unread data plus the next message would pass 1 MiB', () => {
    const written: string[] = [];
    let destroyed = false;
    const res = { writableLength: 1024 * 1024 - 100, write: (text: string) => written.push(text) > 0, destroy: () => void (destroyed = true) };
    expect(writeBounded(res as never, 'x'.repeat(99))).toBe(true);
    expect(writeBounded(res as never, 'x'.repeat(101))).toBe(false);
    expect({ written: written.length, destroyed }).toEqual({ written: 1, destroyed: true });
  });

  test('a long timeline is paged with links to the rest; an oversized section is replaced by a note; the whole stays bounded', async () => {
    const api = lib.libraryApi();
    const sources = { api, host: await lib.createNodeHost(), registry: await lib.createRegistry() };
    const snapshot = await loadSnapshot(sources, await happyFolder(3));
    const many = { ...snapshot, eventCount: 450, timelineFrom: 0, timeline: Array.from({ length: 450 }, (_, i) => ({ ...snapshot.timeline[i % snapshot.timeline.length]!, event: { ...snapshot.timeline[0]!.event, seq: i + 1 } })) };
    const latest = detailSections({ id: 'c', snapshot: many }, 'tok', api).find((s) => s.id === 'timeline')!.html;
    expect(latest.match(/<tr><td/g)).toHaveLength(TIMELINE_PAGE);
    expect(latest).toContain('Events 251–450 of 450: <a href="/c/c?token=tok&amp;upto=250">earlier events</a>.');
    const older = detailSections({ id: 'c', snapshot: many }, 'tok', api, 250).find((s) => s.id === 'timeline')!.html;
    expect(older).toContain('Events 51–250 of 450');
    expect(older).toContain('upto=50">earlier events</a> · <a href="/c/c?token=tok&amp;upto=450">the latest events</a>');
    const huge = { ...snapshot, documents: { ...snapshot.documents, decisions: `# Decisions\n\n${'word '.repeat(400_000)}` } };
    const sections = detailSections({ id: 'c', snapshot: huge }, 'tok', api);
    expect(sections.find((s) => s.id === 'decisions')!.html).toMatch(/too large to show live \(\d+ KiB\): <code>acp report<\/code> writes it whole/);
    expect(sections.reduce((sum, s) => sum + Buffer.byteLength(s.html), 0)).toBeLessThan(640 * 1024);
  });

  // The case is the 501st (the old scan stopped at 500 without a word): the full run has it; the quick one pages 51.
  const count = byScale({ quick: 51, full: 501 });
  test(`the index lists every collaboration: ${count} of them, paged and counted; the last is served`, { timeout: 120_000 }, async () => {
    const root = tempRoot('acp-dashboard-many-');
    const first = await happyFolder(0, join(root, 'c000'));
    for (let i = 1; i < count; i++) cpSync(first, join(root, `c${String(i).padStart(3, '0')}`, 'collab'), { recursive: true });
    const lastId = `c${String(count - 1).padStart(3, '0')}/collab`;
    const pages = Math.ceil(count / PAGE_SIZE);
    const server = await dashboard(root);
    try {
      const token = server.url.searchParams.get('token')!;
      const firstPage = await (await fetch(server.url)).text();
      expect(firstPage).toContain(`${count} collaborations — page 1 of ${pages}`);
      expect(firstPage.match(/<tr data-id=/g)).toHaveLength(PAGE_SIZE);
      const last = await (await fetch(new URL(`/?token=${token}&page=${pages}`, server.url))).text();
      expect(last.match(/<tr data-id="([^"]+)"/g)).toEqual([`<tr data-id="${lastId}"`]);
      expect((await fetch(new URL(`/c/${encodeURIComponent(lastId)}?token=${token}`, server.url))).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  test('a scan cut short by its bound says so on the index', async () => {
    const root = tempRoot('acp-dashboard-bound-');
    for (const name of ['a', 'b', 'c']) await happyFolder(0, join(root, name));
    const sources = { api: lib.libraryApi(), host: await lib.createNodeHost(), registry: await lib.createRegistry() };
    const stop = new AbortController();
    const board = new Board(sources, root, stop.signal, { collaborations: 2, folders: 1000 });
    try {
      await board.start();
      expect(board.entries.size).toBe(2);
      const { summary } = renderIndexPage(board.list(), 1, 'tok', board.scanStopped);
      expect(summary).toContain('<span class="badge warn">incomplete</span> the scan stopped at 2 collaborations: collaborations further on in the tree are not listed');
    } finally {
      stop.abort();
    }
  });

  test('Host must be the bound address or a name given with --allow-host (DNS rebinding)', async () => {
    const root = tempRoot('acp-dashboard-');
    await happyFolder(0, join(root, 'alpha'));
    const server = await dashboard(root, ['--allow-host', 'dash.example', '--allow-host', 'proxy.example:8443']);
    try {
      const port = server.url.port;
      const path = `/?token=${server.url.searchParams.get('token')}`;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `dash.example:${port}`, 'proxy.example:8443']) {
        expect({ host, status: (await getWithHost(server.url, path, host)).status }).toEqual({ host, status: 200 });
      }
      for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, 'dash.example', `[::2]:${port}`]) {
        const r = await getWithHost(server.url, path, host);
        expect({ host, status: r.status, body: r.body }).toEqual({ host, status: 421, body: expect.stringContaining('answers only to its own address') });
      }
    } finally {
      await server.stop();
    }
    expect(await acp(['dashboard', '--root', root, '--allow-host', 'a b'])).toMatchObject({ rc: 2, stderr: "error: argument --allow-host: invalid host name 'a b' (a name or address, optionally with :port)\n" });
    expect([...allowedHosts('0.0.0.0', 80, ['box.lan'], false)]).toEqual(['0.0.0.0:80', '0.0.0.0', 'box.lan:80', 'box.lan']);
  });

  test('a collaboration deleted while watched: its stream hears "gone", the index shows it gone, its page answers 410', async () => {
    const root = tempRoot('acp-dashboard-');
    await happyFolder(3, join(root, 'alpha'));
    await happyFolder(2, join(root, 'beta'));
    const server = await dashboard(root);
    try {
      const token = server.url.searchParams.get('token')!;
      const stream = await readStream(new URL(`/events?token=${token}&c=beta%2Fcollab`, server.url), (seen) => seen.includes('"id":"validation"'));
      rmSync(join(root, 'beta'), { recursive: true });
      const after = await stream.more((text) => text.includes('event: gone'));
      stream.close();
      expect(events(after).find((e) => e.event === 'gone')!.data).toEqual({ id: 'beta/collab' });
      const index = await (await fetch(server.url)).text();
      expect(index).toContain('1 collaboration (1 gone)');
      expect(index).toMatch(/<tr data-id="beta\/collab" class="gone">.*<span class="badge bad">gone<\/span> no longer under the root/);
      const page = await fetch(new URL(`/c/beta%2Fcollab?token=${token}`, server.url));
      expect(page.status).toBe(410);
    } finally {
      await server.stop();
    }
  });
});

/** Five collaborations, one of them with a 10 KB objective without a space and a 10 KB summary likewise. */
async function fiveWithLongText(): Promise<string> {
  const root = tempRoot('acp-dashboard-long-');
  for (const [name, steps] of [['alpha', 3], ['beta', STEPS.length], ['delta', 2], ['epsilon', 0]] as const) await happyFolder(steps, join(root, name));
  const long = await happyFolder(2, join(root, 'gamma'));
  const protocol = JSON.parse(readFileSync(join(long, 'protocol.json'), 'utf8'));
  writeFileSync(join(long, 'protocol.json'), lib.formatProtocolJson({ ...protocol, objective: 'O'.repeat(10_000) }));
  await lib.append(await lib.createNodeHost(), long, { participant: REVIEWER, event: 'review_submitted', summary: 'S'.repeat(10_000), replyTo: 3 });
  return root;
}

/** Whether the page scrolls sideways, and each row's phase and turn cells' boxes. */
async function layout(page: Page): Promise<{ scrolls: boolean; cells: { id: string; phase: Box; turn: Box }[] }> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelectorAll(s: string): Iterable<{ dataset: { id: string }; querySelector(s: string): { getBoundingClientRect(): Box } }> } }).document;
    const box = (r: Box): Box => ({ left: r.left, right: r.right, width: r.width, height: r.height });
    const rows = [...doc.querySelectorAll('#rows tr[data-id]')];
    return {
      scrolls: doc.documentElement.scrollWidth > doc.documentElement.clientWidth,
      cells: rows.map((row) => ({ id: row.dataset.id, phase: box(row.querySelector('td.phase').getBoundingClientRect()), turn: box(row.querySelector('td.turn').getBoundingClientRect()) })),
    };
  });
}

interface Box {
  left: number;
  right: number;
  width: number;
  height: number;
}

describe('the dashboard in a real browser: long text, small screens, landmarks, a collaboration deleted while watched', () => {
  test(browserTestName('375 px and 1,440 px with a 10 KB unbroken objective among five: no sideways scroll, every phase and turn on screen; screenshots'), { skip: SKIP_BROWSER, timeout: 120_000 }, async () => {
    const root = await fiveWithLongText();
    const server = await dashboard(root);
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      for (const width of [375, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(server.url.href);
        await expect.poll(() => page.locator('#live').textContent(), { timeout: 10_000 }).toBe('live');
        const { scrolls, cells } = await layout(page);
        expect({ width, scrolls }).toEqual({ width, scrolls: false });
        expect(cells.map((c) => c.id)).toEqual(['alpha/collab', 'beta/collab', 'delta/collab', 'epsilon/collab', 'gamma/collab']);
        for (const cell of cells) {
          for (const [name, b] of [['phase', cell.phase], ['turn', cell.turn]] as const) {
            expect({ width, id: cell.id, name, visible: b.width > 0 && b.height > 0 && b.left >= 0 && b.right <= width }).toEqual({ width, id: cell.id, name, visible: true });
          }
        }
        // The long objective is clipped in its row, the longer text in its title attribute.
        expect((await page.locator('#rows tr[data-id="gamma/collab"] .objective').getAttribute('title'))!.length).toBeGreaterThan(1000);
        await shoot(page, join(SCREENSHOTS, `dashboard-${width}.png`));
      }
      // The live view of the long one: the heading wraps, the page does not scroll sideways.
      await page.setViewportSize({ width: 375, height: 900 });
      await page.goto(new URL(`/c/gamma%2Fcollab?token=${server.url.searchParams.get('token')}`, server.url).href);
      await expect.poll(() => page.locator('#live').textContent(), { timeout: 10_000 }).toBe('live');
      expect((await layout(page)).scrolls).toBe(false);
      expect(await page.locator('#detail h1').textContent()).toBe('O'.repeat(10_000));
      expect(await page.locator('#detail h1').getAttribute('title')).toBe('O'.repeat(10_000));
      // Clipped to a few lines, as the 10 KB summary in the timeline: the live view stays a few screens long.
      expect((await page.locator('#detail h1').boundingBox())!.height).toBeLessThan(300);
      expect((await page.locator('#detail #timeline').boundingBox())!.height).toBeLessThan(1500);
      await shoot(page, join(SCREENSHOTS, 'dashboard-detail-375.png'));
    } finally {
      await browser.close();
      await server.stop();
    }
  });

  test(browserTestName('landmarks, one <h1> per page, aria-live on the pushed regions; a collaboration deleted while watched shows as gone'), { skip: SKIP_BROWSER, timeout: 120_000 }, async () => {
    const root = tempRoot('acp-dashboard-');
    await happyFolder(3, join(root, 'alpha'));
    await happyFolder(STEPS.length, join(root, 'beta'));
    const server = await dashboard(root);
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      await page.goto(server.url.href);
      await expect.poll(() => page.locator('#live').textContent(), { timeout: 10_000 }).toBe('live');
      expect({ h1: await page.locator('h1').count(), header: await page.locator('body > header').count(), main: await page.locator('main').count() }).toEqual({ h1: 1, header: 1, main: 1 });
      for (const id of ['rows', 'count']) expect(await page.locator(`#${id}`).getAttribute('aria-live')).toBe('polite');

      await page.goto(new URL(`/c/beta%2Fcollab?token=${server.url.searchParams.get('token')}`, server.url).href);
      await expect.poll(() => page.locator('#live').textContent(), { timeout: 10_000 }).toBe('live');
      expect({ h1: await page.locator('h1').count(), main: await page.locator('main').count(), nav: await page.locator('nav').count() }).toEqual({ h1: 1, main: 1, nav: 1 });
      expect(await page.locator('#detail').getAttribute('aria-live')).toBe('polite');
      expect(await page.locator('#detail #outcome').textContent()).toContain('Implement the design.');
      await page.evaluate('window.acpNoReload = 1');

      rmSync(join(root, 'beta'), { recursive: true });
      await expect.poll(() => page.locator('#gone-notice').textContent(), { timeout: 10_000 }).toContain('This collaboration is gone');
      await expect.poll(() => page.locator('#rows tr[data-id="beta/collab"]').getAttribute('class'), { timeout: 10_000 }).toContain('gone');
      expect(await page.locator('#rows tr[data-id="beta/collab"] .badge').textContent()).toBe('gone');
      expect(await page.evaluate('window.acpNoReload')).toBe(1);
      await shoot(page, join(SCREENSHOTS, 'dashboard-gone.png'));
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});
