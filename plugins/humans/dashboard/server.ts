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
import type { Board } from './board.ts';
import { renderPage, renderRows } from './page.ts';

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

/** An open event stream and the collaboration its page shows. */
interface Stream {
  res: ServerResponse;
  collab?: string;
}

/** One Server-Sent Event: each line of the data on its own `data:` line. */
function sse(event: string, data: string): string {
  return `event: ${event}\n${data.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`;
}

/** Start serving `board`; resolves once listening. */
export async function startServer(board: Board, token: string, rootName: string, options: ListenOptions): Promise<DashboardServer> {
  const http = options.tls ? await import('node:https') : await import('node:http');
  const streams = new Set<Stream>();
  const sockets = new Set<{ destroy(): void }>();
  let rows = renderRows(board.list(), token);
  const write = (stream: Stream, text: string): void => {
    // A page that does not read its updates is dropped, not buffered for.
    if (stream.res.writableLength > MAX_BUFFERED) stream.res.destroy();
    else stream.res.write(text);
  };
  const unsubscribe = board.subscribe((id) => {
    rows = renderRows(board.list(), token);
    const rowsEvent = sse('rows', rows);
    const detail = id === undefined ? undefined : board.entries.get(id)?.detail;
    for (const stream of streams) write(stream, rowsEvent + (detail !== undefined && stream.collab === id ? sse('detail', detail) : ''));
  });
  const heartbeat = setInterval(() => {
    for (const stream of streams) write(stream, ': keep-alive\n\n');
  }, HEARTBEAT_MS);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!sameSecret(url.searchParams.get('token') ?? bearer ?? '', token)) return void res.writeHead(401, { 'content-length': '0', 'cache-control': 'no-store' }).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD', 'content-length': '0' }).end();
    const nonce = randomToken(16);
    if (url.pathname === '/events') return openStream(url.searchParams.get('c') ?? undefined, res);
    const match = /^\/c\/([^/]+)$/.exec(url.pathname);
    const collab = match ? safeDecode(match[1]!) : undefined;
    // Only the collaborations the scan found are served: any other name, `..` included, is not one.
    if ((match && (collab === undefined || !board.entries.has(collab))) || (!match && url.pathname !== '/')) {
      return void res.writeHead(404, { ...pageHeaders(nonce), 'content-type': 'text/plain; charset=utf-8' }).end('not found: no such collaboration under the dashboard\'s root\n');
    }
    const detail = collab === undefined ? undefined : board.entries.get(collab)?.detail;
    res.writeHead(200, pageHeaders(nonce)).end(req.method === 'HEAD' ? undefined : renderPage({ rows, detail, collab, nonce, rootName }));
  };
  const openStream = (collab: string | undefined, res: ServerResponse): void => {
    if (collab !== undefined && !board.entries.has(collab)) return void res.writeHead(404, { 'content-length': '0' }).end();
    if (streams.size >= MAX_STREAMS) return void res.writeHead(503, { 'retry-after': '10', 'content-length': '0' }).end();
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    const stream: Stream = { res, collab };
    streams.add(stream);
    res.on('close', () => streams.delete(stream));
    const detail = collab === undefined ? undefined : board.entries.get(collab)?.detail;
    write(stream, sse('rows', rows) + (detail !== undefined ? sse('detail', detail) : ''));
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
