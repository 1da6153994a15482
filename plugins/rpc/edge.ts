// The process edge of `acp serve`, `acp rpc` and `acp wait --server`: the
// only place in this plugin that touches `process` (stdio bytes, signals, the
// environment, whether stdout is a terminal). Loaded only by those commands,
// so other commands never need more permissions than before (Deno).

import type { ByteStream } from './peer.ts';

interface ProcessLike {
  stdin: { on(event: string, listener: (...args: never[]) => void): unknown; pause?(): unknown; resume?(): unknown; destroy?(): unknown };
  stdout: { write(data: Uint8Array, cb?: (error?: Error | null) => void): boolean; isTTY?: boolean; writableLength?: number; end?(): unknown };
  env: Record<string, string | undefined>;
  on(event: string, listener: () => void): unknown;
  off?(event: string, listener: () => void): unknown;
}

function proc(): ProcessLike {
  return (globalThis as unknown as { process: ProcessLike }).process;
}

/** stdin/stdout as one byte stream (the stdio transport). */
export function stdioStream(): ByteStream {
  const p = proc();
  const closeListeners: Array<() => void> = [];
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    for (const listener of closeListeners) listener();
  };
  p.stdin.on('end', close);
  p.stdin.on('close', close);
  return {
    write: (bytes) => p.stdout.write(bytes),
    end: () => {
      // Nothing more will be read; stdout writes already went out (pipes and files are written synchronously).
      p.stdin.destroy?.();
      close();
    },
    destroy: () => {
      p.stdin.destroy?.();
      close();
    },
    get writableLength() {
      return p.stdout.writableLength;
    },
    on(event: 'data' | 'close' | 'error', listener: ((chunk: Uint8Array) => void) | (() => void) | ((error: Error) => void)) {
      if (event === 'close') closeListeners.push(listener as () => void);
      else p.stdin.on(event, listener as (...args: never[]) => void);
      return this;
    },
  } as ByteStream;
}

/** Run `fn` once on SIGINT or SIGTERM; returns a function that removes the handlers. */
export function onTerminate(fn: () => void): () => void {
  const p = proc();
  const handler = (): void => fn();
  p.on('SIGINT', handler);
  p.on('SIGTERM', handler);
  return () => {
    p.off?.('SIGINT', handler);
    p.off?.('SIGTERM', handler);
  };
}
