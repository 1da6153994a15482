/**
 * Ed25519 signatures verified on every core (issue 36): validate hands each
 * signature over as it reads the log, and the runtime's own thread pool
 * verifies them while the log is still being read (WebCrypto's `verify` is
 * asynchronous: Node runs it on libuv's pool, Bun on its own, Deno on
 * tokio's). The verdicts come back in the order the signatures were handed
 * over, whatever order the threads finish in.
 *
 * Why not worker threads: measured on this project's 2-core machine, the
 * pool already keeps both cores busy (Node 20: 152–196 µs of CPU per
 * signature batched against 131–137 µs one by one on one thread; Bun 89–98
 * against 74–80), and a worker's code must be a file or a string of code:
 * the compiled binary and the skill's one-file runtime have no such file,
 * and code in strings is not run here. A worker would save the pool's ~15 %
 * overhead per signature, not the signatures.
 *
 * Bounded: at most {@link ParallelOptions.window} chunks of
 * {@link ParallelOptions.chunk} signatures are in flight; the rest wait
 * (the log is read in pieces, and each piece's signatures are settled before
 * the next is read, so the waiting ones are at most one piece's).
 *
 * The serial path verifies each signature when it is handed over, on this
 * thread (node:crypto's synchronous `verify`): what a runtime without
 * WebCrypto's Ed25519 falls back to, and the oracle the parallel path is
 * tested against (test/signing.test.ts: the same verdicts, seqs and words).
 * @module
 */
// The WebCrypto types as @types/node names them (the declaration build has no DOM lib).
import type { webcrypto } from 'node:crypto';
import { AcpError } from './errors.ts';
import { fromBase64Url } from './keyring.ts';
import { getBuiltin } from './util.ts';

/** One signature to verify: the signer's public key and the signature (base64url, as the log has them), and the signed bytes. */
export interface SignatureCheck {
  key: string;
  message: Uint8Array<ArrayBuffer>;
  sig: string;
}

/** How signatures are verified: on the runtime's thread pool, or one by one on this thread. */
export type VerifyMode = 'parallel' | 'serial';

/** The parallel path's bounds (tests make them small to cross every boundary with a short log). */
export interface ParallelOptions {
  /** Signatures handed to the pool at once (default 256). */
  chunk?: number;
  /** Chunks in flight at most (default 4: more than the pool's threads, so none waits for work). */
  window?: number;
}

/**
 * Where signatures go to be verified: {@link push} takes one (synchronous:
 * validate's pass over a piece of the log is), {@link drain} resolves once
 * every verdict was reported, in the order pushed.
 */
export interface SignatureSink<T extends SignatureCheck> {
  push(check: T): void;
  drain(): Promise<void>;
  /** The path actually taken ('serial' where the runtime lacks the parallel one). */
  readonly mode: VerifyMode;
}

/**
 * The part of WebCrypto's SubtleCrypto that signing calls, declared here:
 * the published declarations must compile without @types/node and without
 * the DOM lib (test/package.test.ts type-checks them so), and node:crypto's
 * type would need one of them.
 */
export interface Subtle {
  generateKey(algorithm: { name: 'Ed25519' }, extractable: boolean, usages: ('sign' | 'verify')[]): Promise<unknown>;
  exportKey(format: 'jwk', key: KeyHandle): Promise<{ d?: string; x?: string }>;
  importKey(format: 'jwk', keyData: object, algorithm: { name: 'Ed25519' }, extractable: boolean, usages: 'sign'[]): Promise<KeyHandle>;
  sign(algorithm: 'Ed25519', key: KeyHandle, data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
}

/** A WebCrypto key as {@link Subtle} passes it around (a CryptoKey). */
export interface KeyHandle {
  readonly type: string;
  readonly extractable: boolean;
}

/** WebCrypto's SubtleCrypto as signing uses it; an error where the runtime has none. */
export function subtle(): Subtle {
  return webCrypto();
}

/** WebCrypto's SubtleCrypto; an error where the runtime has none. */
function webCrypto(): webcrypto.SubtleCrypto {
  const s = (globalThis as { crypto?: { subtle?: webcrypto.SubtleCrypto } }).crypto?.subtle;
  if (!s) throw new AcpError('this runtime has no WebCrypto (crypto.subtle): signed collaborations need it', 2, 'usage');
  return s;
}

/**
 * A sink that verifies as `mode` says and reports each verdict to
 * `report`. Parallel where WebCrypto is there, else serial; serial through
 * node:crypto where the runtime has it, else through WebCrypto one at a
 * time; neither: the error of {@link subtle}.
 */
export function signatureSink<T extends SignatureCheck>(mode: VerifyMode, report: (check: T, ok: boolean) => void, options: ParallelOptions = {}): SignatureSink<T> {
  const hasSubtle = (globalThis as { crypto?: { subtle?: unknown } }).crypto?.subtle !== undefined;
  const sync = mode === 'serial' || !hasSubtle ? syncVerifier() : undefined;
  if (sync) return { mode: 'serial', push: (check) => report(check, sync(check)), drain: async () => undefined };
  // One at a time through WebCrypto: a serial path where node:crypto lacks Ed25519.
  const bounds = mode === 'serial' ? { chunk: 1, window: 1 } : options;
  return new PooledSink(report, bounds, mode);
}

/** Signatures in chunks on WebCrypto's thread pool, verdicts reported in order. */
class PooledSink<T extends SignatureCheck> implements SignatureSink<T> {
  readonly mode: VerifyMode;
  /** WebCrypto, looked up at the first signature: a log without any needs none. */
  #subtle: webcrypto.SubtleCrypto | undefined;
  readonly #report: (check: T, ok: boolean) => void;
  readonly #chunk: number;
  readonly #window: number;
  readonly #keys = new Map<string, Promise<webcrypto.CryptoKey | undefined>>();
  #waiting: T[] = [];
  /** Chunks in flight, oldest first; each settles to its verdicts or to the error that stopped it. */
  readonly #inFlight: { checks: T[]; verdicts: Promise<boolean[] | { error: unknown }> }[] = [];

  constructor(report: (check: T, ok: boolean) => void, options: ParallelOptions, mode: VerifyMode) {
    this.#report = report;
    this.#chunk = Math.max(1, options.chunk ?? 256);
    this.#window = Math.max(1, options.window ?? 4);
    this.mode = mode;
  }

  push(check: T): void {
    this.#waiting.push(check);
    // A full chunk goes to the pool now, so that the threads verify while this thread reads on.
    if (this.#waiting.length >= this.#chunk && this.#inFlight.length < this.#window) this.#dispatch();
  }

  async drain(): Promise<void> {
    while (this.#inFlight.length || this.#waiting.length) {
      while (this.#waiting.length && this.#inFlight.length < this.#window) this.#dispatch();
      const oldest = this.#inFlight.shift()!;
      const verdicts = await oldest.verdicts;
      if (!Array.isArray(verdicts)) throw verdicts.error;
      oldest.checks.forEach((check, i) => this.#report(check, verdicts[i]!));
    }
  }

  #dispatch(): void {
    const crypto = (this.#subtle ??= webCrypto());
    const checks = this.#waiting.splice(0, this.#chunk);
    // Settled at once into a value: a chunk that fails while the log is still being read is no unhandled rejection.
    const verdicts = this.#verify(crypto, checks).catch((error: unknown) => ({ error }));
    this.#inFlight.push({ checks, verdicts });
  }

  /** One chunk: its keys imported (once per key per run), then every signature handed to the pool at once. */
  async #verify(crypto: webcrypto.SubtleCrypto, checks: T[]): Promise<boolean[]> {
    const keys = new Map<string, webcrypto.CryptoKey | undefined>();
    for (const check of checks) if (!keys.has(check.key)) keys.set(check.key, await this.#importKey(crypto, check.key));
    return Promise.all(
      checks.map((check) => {
        const key = keys.get(check.key);
        const sig = fromBase64Url(check.sig) as Uint8Array<ArrayBuffer> | undefined;
        return key !== undefined && sig?.length === 64 ? crypto.verify('Ed25519', key, sig, check.message) : false;
      }),
    );
  }

  #importKey(crypto: webcrypto.SubtleCrypto, key: string): Promise<webcrypto.CryptoKey | undefined> {
    let imported = this.#keys.get(key);
    if (!imported) {
      const raw = fromBase64Url(key) as Uint8Array<ArrayBuffer> | undefined;
      imported = raw ? crypto.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']).catch(() => undefined) : Promise.resolve(undefined);
      this.#keys.set(key, imported);
    }
    return imported;
  }
}

/** The part of node:crypto that verifies one signature synchronously. */
interface NodeVerifier {
  createPublicKey(options: { key: { kty: 'OKP'; crv: 'Ed25519'; x: string }; format: 'jwk' }): unknown;
  verify(algorithm: null, data: Uint8Array, key: unknown, signature: Uint8Array): boolean;
}

/** node:crypto's synchronous Ed25519 verification, keys imported once; `undefined` where the runtime lacks it. */
function syncVerifier(): ((check: SignatureCheck) => boolean) | undefined {
  const node = getBuiltin('node:crypto') as Partial<NodeVerifier> | undefined;
  if (typeof node?.verify !== 'function' || typeof node.createPublicKey !== 'function') return undefined;
  const { verify, createPublicKey } = node as NodeVerifier;
  const keys = new Map<string, unknown>();
  const keyOf = (x: string): unknown => {
    if (!keys.has(x)) {
      let key: unknown;
      try {
        key = fromBase64Url(x)?.length === 32 ? createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' }) : undefined;
      } catch {
        key = undefined;
      }
      keys.set(x, key);
    }
    return keys.get(x);
  };
  return (check) => {
    const key = keyOf(check.key);
    const sig = fromBase64Url(check.sig);
    if (key === undefined || sig?.length !== 64) return false;
    try {
      return verify(null, check.message, key, sig);
    } catch {
      return false;
    }
  };
}
