/**
 * The dashboard's HTTP server (node:http, which Node, Bun and Deno all
 * provide): read-only, every request authenticated by the random token of
 * the printed URL (401 and an empty body without it), pages under a strict
 * Content-Security-Policy (one inline script, allowed by a per-response
 * nonce; nothing loaded from anywhere else), and the live updates pushed
 * as Server-Sent Events. The collaborations are followed once, whatever
 * the number of pages: an idle page costs a socket and nothing else, and a
 * page that stops reading is dropped rather than buffered for.
 * @module
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Buffer } from 'node:buffer';
import type { HumansApi } from '../context.ts';
import type { Board } from './board.ts';
import { LiveViews, sse, type Stream } from './live.ts';
import { renderPage } from './page.ts';
import type { ReportSection } from '../report.ts';

/** At most this many live pages at once (more get 503): a bound on sockets and memory. */
const MAX_STREAMS = 1000;
/** A page whose unread updates exceed this is dropped (it reconnects if it is alive). */
const MAX_BUFFERED = 1 << 20;
/** A comment line this often keeps idle streams open through proxies and finds dead peers. */
const HEARTBEAT_MS = 30_000;
/** A client must send its request headers within this time (no slow-loris hold on a socket). */
const HEADERS_TIMEOUT_MS = 10_000;

/** Where and how to listen. */
export interface ListenOptions {
  host: string;
  port: number;
  /** PEM certificate and key: serve HTTPS. */
  tls?: { cert: string; key: string };
  /** More names the `Host` header may carry (a proxy's, the machine's): `--allow-host`. */
  allowHosts?: readonly string[];
  /** The library (the report's phase diagram). */
  api: HumansApi;
}

/** A running dashboard server. */
export interface DashboardServer {
  url: string;
  /** Stop listening and end every stream. */
  close(): Promise<void>;
}

/** A random URL-safe string of `bytes` random bytes (the token, the nonces). */
export function randomToken(bytes: number): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** Compare in time independent of where the strings differ (the token must not leak by timing). */
function sameSecret(given: string, secret: string): boolean {
  let diff = given.length ^ secret.length;
  for (let i = 0; i < secret.length; i++) diff |= (given.charCodeAt(i) || 0) ^ secret.charCodeAt(i);
  return diff === 0;
}

/** Headers of every page: no caching, no sniffing, no referrer (the URL carries the token), no framing. */
function pageHeaders(nonce: string): Record<string, string> {
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' };
}

/**
 * Write to a page's stream, or drop the page when what it has not read plus
 * this message would exceed the bound (1 MiB, docs/humans.md): a page that
 * stops reading costs at most that, never that plus a message. Returns
 * whether it was written.
 */
export function writeBounded(res: Pick<ServerResponse, 'writableLength' | 'write' | 'destroy'>, text: string, bound = MAX_BUFFERED): boolean {
  if (res.writableLength + Buffer.byteLength(text) > bound) {
    res.destroy();
    return false;
  }
  res.write(text);
  return true;
}

/** A whole number from a query parameter, else `fallback`. */
function wholeParam(url: URL, name: string, fallback: number): number {
  const value = url.searchParams.get(name);
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : fallback;
}

/** Addresses that only this machine can reach. */
export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The `Host` values the server answers to: its bound address and port (for
 * a loopback address also `localhost`, `127.0.0.1` and `[::1]`), and the
 * names the user passed (`--allow-host`, with or without a port). Any other
 * Host is a page that reached us by DNS rebinding, or a proxy nobody named.
 */
export function allowedHosts(bound: string, port: number, names: readonly string[], tls: boolean): Set<string> {
  const bracket = (name: string): string => (name.includes(':') && !name.startsWith('[') ? `[${name}]` : name);
  const hosts = new Set<string>();
  for (const name of [bound, ...(isLoopbackAddress(bound) ? ['127.0.0.1', 'localhost', '::1'] : []), ...names]) {
    const hasPort = /^\[.*\]:\d+$|^[^:[\]]+:\d+$/.test(name);
    hosts.add((hasPort ? name : `${bracket(name)}:${port}`).toLowerCase());
    // A browser leaves the scheme's default port out of Host.
    if (!hasPort && port === (tls ? 443 : 80)) hosts.add(bracket(name).toLowerCase());
  }
  return hosts;
}

/** The answer to a request whose Host is not one of ours: 421, before the token is even looked at. */
function misdirected(res: ServerResponse): void {
  res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('this dashboard answers only to its own address (acp dashboard --allow-host NAME adds a name)\n');
}

/** Start serving `board`; resolves once listening. */
export async function startServer(board: Board, token: string, rootName: string, options: ListenOptions): Promise<DashboardServer> {
  const http = options.tls ? await import('node:https') : await import('node:http');
  const streams = new Set<Stream>();
  const sockets = new Set<{ destroy(): void }>();
  const live = new LiveViews(board, token, options.api);
  let hosts = new Set<string>();
  const write = (stream: Stream, text: string): void => void writeBounded(stream.res, text);
  const unsubscribe = board.subscribe((change) => {
    for (const [stream, text] of live.messages(change, streams)) write(stream, text);
  });
  const heartbeat = setInterval(() => {
    for (const stream of streams) write(stream, ': keep-alive\n\n');
  }, HEARTBEAT_MS);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    if (!hosts.has((req.headers.host ?? '').toLowerCase())) return misdirected(res);
    const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!sameSecret(url.searchParams.get('token') ?? bearer ?? '', token)) return void res.writeHead(401, { 'content-length': '0', 'cache-control': 'no-store' }).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD', 'content-length': '0' }).end();
    const nonce = randomToken(16);
    const page = wholeParam(url, 'page', 0);
    if (url.pathname === '/events') return openStream(url.searchParams.get('c') ?? undefined, Math.max(page, 1), url.searchParams.has('upto'), res);
    const match = /^\/c\/([^/]+)$/.exec(url.pathname);
    const collab = match ? safeDecode(match[1]!) : undefined;
    const gone = collab !== undefined && board.gone.has(collab);
    // Only the collaborations the scan found are served: any other name, `..` included, is not one.
    if ((match && (collab === undefined || (!board.entries.has(collab) && !gone))) || (!match && url.pathname !== '/')) {
      return void res.writeHead(404, { ...pageHeaders(nonce), 'content-type': 'text/plain; charset=utf-8' }).end('not found: no such collaboration under the dashboard\'s root\n');
    }
    const shown = page || live.pageOf(collab);
    const upto = url.searchParams.has('upto') ? wholeParam(url, 'upto', Number.MAX_SAFE_INTEGER) : undefined;
    const send = (detail: ReportSection[] | undefined): void => {
      const html = renderPage({ index: live.index(shown), page: shown, detail, collab, nonce, rootName });
      res.writeHead(gone ? 410 : 200, pageHeaders(nonce)).end(req.method === 'HEAD' ? undefined : html);
    };
    if (collab === undefined || upto === undefined) return send(collab === undefined ? undefined : live.sections(collab));
    // An older page of the timeline is read from the log; a log that cannot be read now shows the latest page.
    void live.pageSections(collab, upto).catch(() => live.sections(collab)).then(send);
  };
  const openStream = (collab: string | undefined, page: number, paged: boolean, res: ServerResponse): void => {
    if (collab !== undefined && !board.entries.has(collab) && !board.gone.has(collab)) return void res.writeHead(404, { 'content-length': '0' }).end();
    if (streams.size >= MAX_STREAMS) return void res.writeHead(503, { 'retry-after': '10', 'content-length': '0' }).end();
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    const stream: Stream = { res, collab, page, paged };
    streams.add(stream);
    res.on('close', () => {
      streams.delete(stream);
      if (collab !== undefined) live.forgetUnwatched(collab, streams);
    });
    write(stream, sse('rows', live.index(page)));
    if (collab !== undefined && board.gone.has(collab)) write(stream, sse('gone', { id: collab }));
    else if (collab !== undefined && !paged) for (const section of live.watch(collab)) write(stream, sse('detail', section));
  };
  const server: Server = options.tls ? (http as typeof import('node:https')).createServer({ cert: options.tls.cert, key: options.tls.key }, handler) : (http as typeof import('node:http')).createServer(handler);
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = HEADERS_TIMEOUT_MS;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  hosts = allowedHosts(options.host, port, options.allowHosts ?? [], Boolean(options.tls));
  const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `${options.tls ? 'https' : 'http'}://${hostPart}:${port}/?token=${token}`,
    close: async () => {
      unsubscribe();
      clearInterval(heartbeat);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** A percent-decoded path segment, or undefined when it is not valid UTF-8 percent-encoding. */
function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
