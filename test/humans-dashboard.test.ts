// `acp dashboard` (issue 29): every collaboration under a root, live, in a
// browser. Served in this process; checked over HTTP (the token, the root's
// confinement, the headers) and in a real browser (Debian's Chromium through
// playwright-core): three collaborations, appends by acp and by a writer that
// works as the Python tools do, seen without a reload; hostile text inert.
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import { REPO_DIR } from './conformance/replay.ts';
import { browserTestName, launchBrowser, SKIP_BROWSER } from './humans/browser.ts';
import { acp } from './humans/context.ts';
import { dashboard } from './humans/dashboard.ts';
import { cleanup, happyFolder, REVIEWER, STEPS, tempRoot } from './humans/folders.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs are disk work otherwise.
tmpdirInScratch();

afterAll(cleanup);

const HOSTILE = "<script>document.documentElement.setAttribute('data-pwned','row')</script> \u202eevil\u0007";

/** Three collaborations: alpha revising (alice's turn), beta completed, gamma blocked by bob with a hostile reason. */
async function threeCollaborations(): Promise<string> {
  const root = tempRoot('acp-dashboard-');
  await happyFolder(3, join(root, 'alpha'));
  await happyFolder(STEPS.length, join(root, 'beta'));
  const gamma = await happyFolder(2, join(root, 'gamma'));
  await lib.append(await lib.createNodeHost(), gamma, { participant: REVIEWER, event: 'blocked', summary: HOSTILE, replyTo: 3 });
  return root;
}

/**
 * Append as the Python tools do: the event line appended to events.jsonl,
 * then protocol.json rewritten in place, without acp's lock. The line and
 * state are what an append makes (computed on a copy of the folder).
 */
async function appendLikeThePythonTools(folder: string, step: (typeof STEPS)[number]): Promise<void> {
  const scratch = join(tempRoot(), 'copy');
  cpSync(folder, scratch, { recursive: true });
  for (const [name, text] of Object.entries(step.files ?? {})) writeFileSync(join(scratch, name), text);
  await lib.append(await lib.createNodeHost(), scratch, step.event);
  for (const [name, text] of Object.entries(step.files ?? {})) writeFileSync(join(folder, name), text);
  const line = readFileSync(join(scratch, 'events.jsonl'), 'utf8').trimEnd().split('\n').at(-1)!;
  appendFileSync(join(folder, 'events.jsonl'), `${line}\n`);
  writeFileSync(join(folder, 'protocol.json'), readFileSync(join(scratch, 'protocol.json')));
}

describe('acp dashboard', () => {
  test('the token or 401 and nothing else; only the scanned collaborations; strict headers; read-only', async () => {
    const root = await threeCollaborations();
    const server = await dashboard(root);
    try {
      const token = server.url.searchParams.get('token')!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(server.url.hostname).toBe('127.0.0.1');
      for (const path of ['/', '/?token=', `/?token=${token.slice(0, -1)}`, '/events', `/c/alpha%2Fcollab?token=${token}x`]) {
        const r = await fetch(new URL(path, server.url));
        expect({ path, status: r.status, body: await r.text() }).toEqual({ path, status: 401, body: '' });
      }
      const page = await fetch(server.url);
      expect(page.status).toBe(200);
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toMatch(/^default-src 'none'; script-src 'nonce-[A-Za-z0-9_-]{22}'; style-src 'nonce-[A-Za-z0-9_-]{22}'; img-src data:; connect-src 'self';/);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await page.text();
      expect(html.match(/<script/g)).toHaveLength(1);
      expect(html).not.toMatch(/<(link|img|iframe)[^>]+(src|href)="(?!data:)/);
      expect(html).toContain('Choose the storage layer');
      expect(html).not.toContain('data-pwned\',\'row\')</script>');
      for (const path of ['/c/..%2F..%2Fetc', '/c/alpha', '/c/%2Fetc%2Fpasswd', '/c/%E0%A4%A', '/elsewhere']) {
        const r = await fetch(new URL(`${path}?token=${token}`, server.url));
        expect({ path, status: r.status }).toEqual({ path, status: 404 });
      }
      expect((await fetch(new URL(`/c/alpha%2Fcollab?token=${token}`, server.url))).status).toBe(200);
      expect((await fetch(server.url, { method: 'POST', body: 'x' })).status).toBe(405);
      expect((await fetch(new URL('/', server.url), { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      expect((await server.stop()).rc).toBe(130);
    }
  });

  test('a path outside the root is refused: a linked folder is not listed, a linked document is not read', async () => {
    const root = tempRoot('acp-dashboard-');
    const outside = tempRoot('acp-outside-');
    const inside = await happyFolder(2, join(root, 'inside'));
    const away = await happyFolder(2, join(outside, 'away'));
    writeFileSync(join(outside, 'secret.txt'), 'TOP-SECRET-KEY\n');
    symlinkSync(away, join(root, 'linked'));
    writeFileSync(join(away, 'decisions.md'), '# Decisions\n\nAWAY-ONLY\n');
    rmSync(join(inside, 'proposal.md'));
    symlinkSync(join(outside, 'secret.txt'), join(inside, 'proposal.md'));
    const server = await dashboard(root);
    try {
      const token = server.url.searchParams.get('token')!;
      const index = await (await fetch(server.url)).text();
      expect(index).toContain('inside/collab');
      expect(index).not.toContain('linked');
      expect((await fetch(new URL(`/c/linked?token=${token}`, server.url))).status).toBe(404);
      const detail = await (await fetch(new URL(`/c/inside%2Fcollab?token=${token}`, server.url))).text();
      expect(detail).toContain('Choose the storage layer');
      expect(detail).not.toContain('TOP-SECRET');
      expect(detail).not.toContain('AWAY-ONLY');
    } finally {
      await server.stop();
    }
    // The core's read-only view (the dashboard's host): a link, or a folder on the way that is one, leads nowhere; outside the root nothing is read.
    const host = lib.confineHost(await lib.createNodeHost(), [root], { readOnly: true });
    await expect(host.fs.readFile(join(inside, 'proposal.md'))).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(host.fs.readFile(join(root, 'linked', 'decisions.md'))).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(host.fs.readFile(join(outside, 'secret.txt'))).rejects.toMatchObject({ code: 'EACCES' });
    await expect(host.fs.readFile(`${root}/../${basename(outside)}/secret.txt`)).rejects.toMatchObject({ code: 'EACCES' });
    await expect(host.fs.writeFile(join(inside, 'x.md'), 'x')).rejects.toMatchObject({ code: 'EROFS' });
    expect(await host.fs.stat(join(root, 'linked', 'decisions.md'))).toBeNull();
    expect(await host.fs.stat(join(outside, 'secret.txt'))).toBeNull();
    expect(new TextDecoder().decode(await host.fs.readFile(join(inside, 'decisions.md')))).toContain('# Decisions');
  });

  test('a symlink planted after start leads nowhere: a document and the deliverables folder replaced by links out of the root', async () => {
    const root = tempRoot('acp-dashboard-');
    const outside = tempRoot('acp-outside-');
    const target = await happyFolder(2, join(root, 'target'));
    const control = await happyFolder(2, join(root, 'control'));
    const planted = readFileSync(join(target, 'decisions.md'), 'utf8').replace('# Decisions', '# Decisions\n\n## Accepted Decisions\n\n### D9. PLANTED-SECRET\n\n- Decision: x\n');
    writeFileSync(join(outside, 'decisions.md'), planted);
    cpSync(join(target, 'deliverables'), join(outside, 'deliverables'), { recursive: true });
    writeFileSync(join(outside, 'deliverables', 'design-spec.md'), readFileSync(join(target, 'deliverables', 'design-spec.md'), 'utf8').replace(/^# .*$/m, '# PLANTED-SPEC'));
    const server = await dashboard(root);
    try {
      const token = server.url.searchParams.get('token')!;
      const detail = async (id: string): Promise<string> => (await fetch(new URL(`/c/${id}%2Fcollab?token=${token}`, server.url))).text();
      expect(await detail('target')).toContain('Choose the storage layer');
      // After start: the target's decisions.md and deliverables/ become links out of the root; the control gets the same text as its own file.
      rmSync(join(target, 'decisions.md'));
      symlinkSync(join(outside, 'decisions.md'), join(target, 'decisions.md'));
      rmSync(join(target, 'deliverables'), { recursive: true });
      symlinkSync(join(outside, 'deliverables'), join(target, 'deliverables'));
      writeFileSync(join(control, 'decisions.md'), planted);
      for (const folder of [target, control]) await lib.append(await lib.createNodeHost(), folder, { participant: REVIEWER, event: 'blocked', summary: 'stop', replyTo: 3 });
      // Both read again (the event is on the page): the control shows the text, the target not.
      await expect.poll(() => detail('control'), { timeout: 30_000 }).toContain('PLANTED-SECRET');
      await expect.poll(() => detail('target'), { timeout: 30_000 }).toMatch(/blocked/);
      const page = await detail('target');
      expect(page).not.toContain('PLANTED-SECRET');
      expect(page).not.toContain('PLANTED-SPEC');
      expect(await (await fetch(new URL(`/?token=${token}`, server.url))).text()).not.toContain('PLANTED');
    } finally {
      await server.stop();
    }
  });

  test('bad options: a clear error, exit 2', async () => {
    const root = tempRoot();
    expect(await acp(['dashboard', '--root', join(root, 'missing')])).toMatchObject({ rc: 2, stderr: `error: --root '${join(root, 'missing')}' is not a directory\n` });
    expect(await acp(['dashboard', '--root', root, '--port', '70000'])).toMatchObject({ rc: 2, stderr: "error: argument --port: invalid port '70000' (0 to 65535; 0 picks a free one)\n" });
    // An int option (defineCommand): argparse's words for a value that is no int, before the root is looked at.
    expect(await acp(['dashboard', '--root', join(root, 'missing'), '--port', 'http'])).toMatchObject({ rc: 2, stderr: "error: argument --port: invalid int value: 'http'\n" });
    expect(await acp(['dashboard', '--root', root, '--tls-cert', 'c.pem'])).toMatchObject({ rc: 2, stderr: 'error: --tls-cert and --tls-key go together\n' });
  });

  test(browserTestName('in a real browser: three collaborations, appends by acp and by a Python-style writer seen live, hostile text inert; screenshot'), { skip: SKIP_BROWSER, timeout: 120_000 }, async () => {
    const root = await threeCollaborations();
    const alpha = join(root, 'alpha', 'collab');
    const server = await dashboard(root);
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      await page.goto(new URL(`/c/alpha%2Fcollab?token=${server.url.searchParams.get('token')}`, server.url).href);
      await expect.poll(() => page.locator('#live').textContent(), { timeout: 10_000 }).toBe('live');
      const phaseOf = (id: string) => page.locator(`#rows tr[data-id="${id}/collab"] td.phase .badge`).textContent();
      expect([await phaseOf('alpha'), await phaseOf('beta'), await phaseOf('gamma')]).toEqual(['revising', 'completed', 'blocked']);
      expect(await page.locator('#detail .current-phase').textContent()).toBe('revising');
      await page.evaluate('window.acpNoReload = 1');
      const events = () => page.locator('#detail #timeline tbody tr').count();
      expect(await events()).toBe(4);

      const latency: Record<string, number> = {};
      const host = await lib.createNodeHost();
      let t0 = performance.now();
      await lib.append(host, alpha, STEPS[3]!.event);
      await expect.poll(() => phaseOf('alpha'), { timeout: 10_000, interval: 10 }).toBe('decision_review');
      await expect.poll(() => page.locator('#detail .current-phase').textContent(), { timeout: 10_000, interval: 10 }).toBe('decision_review');
      latency.acp = performance.now() - t0;

      t0 = performance.now();
      await appendLikeThePythonTools(alpha, STEPS[4]!);
      await expect.poll(() => page.locator('#rows tr[data-id="alpha/collab"] td.last code').textContent(), { timeout: 10_000, interval: 10 }).toBe('question_classified');
      await expect.poll(events, { timeout: 10_000, interval: 10 }).toBe(6);
      latency.python = performance.now() - t0;
      // A figure for the closing note (the bound is the poll's, not a timing assertion).
      console.log(`dashboard update latency (append to row and detail changed in the page): acp ${latency.acp.toFixed(0)} ms, Python-style writer ${latency.python.toFixed(0)} ms`);
      expect(await page.evaluate('window.acpNoReload')).toBe(1);

      // The hostile reason is text: visible, escaped, run by nothing, reordering nothing.
      const reason = await page.locator('#rows tr[data-id="gamma/collab"] td.last .summary').textContent();
      expect(reason).toBe("<script>document.documentElement.setAttribute('data-pwned','row')</script> \\u202eevil\\u0007");
      expect(await page.locator('html').getAttribute('data-pwned')).toBeNull();
      expect(await page.locator('script').count()).toBe(1);
      expect(await page.locator('html').textContent()).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0007]/);

      const shot = join(REPO_DIR, 'dist', 'reports', 'dashboard.png');
      mkdirSync(dirname(shot), { recursive: true });
      await page.screenshot({ path: shot, fullPage: true });
      expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});
