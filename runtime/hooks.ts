/**
 * The hook points: the hooks a plugin registers, run in order with a
 * deadline each, their refusals and failures named after the plugin.
 * @module
 */
import { AcpError, AcpPluginError } from './errors.ts';
import { pyStr } from './pytext.ts';
import type { AcpHooks, HookOrder } from './types.ts';

/** The hook names, for checking plugins. */
export const HOOK_NAMES: readonly (keyof AcpHooks)[] = ['init:files', 'append:before', 'append:after', 'phase:change', 'validate', 'next'];

interface RegisteredHook {
  name: keyof AcpHooks;
  fn: (context: never) => unknown;
  order: HookOrder;
  owner: string;
  timeoutMs: number;
}

/** How long a hook call may take unless its plugin says otherwise ({@link AcpPlugin.timeoutMs}). */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

/**
 * Run a hook with a deadline: a hook that never settles must not hold the
 * folder lock (and every other writer) forever. A synchronous endless loop
 * cannot be interrupted from inside the process; the lock's lease covers it.
 */
async function callWithDeadline(hook: RegisteredHook, name: string, context: unknown): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seconds = hook.timeoutMs / 1000;
      reject(new AcpError(`plugin '${hook.owner}' timed out in ${name} after ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`, 2, 'plugin_timeout'));
    }, hook.timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => (hook.fn as (context: unknown) => unknown)(context)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Thrown by `refuse()` inside `append:before`. */
export class AcpRefusal extends Error {}

const ORDER_RANK: Record<HookOrder, number> = { pre: 0, normal: 1, post: 2 };

/** A typed hook runner (in the style of unjs/hookable). */
export class HookRunner {
  #hooks: RegisteredHook[] = [];

  /** Register a hook; returns a function that unregisters it. */
  hook<K extends keyof AcpHooks>(name: K, fn: AcpHooks[K], options: { order?: HookOrder; owner?: string; timeoutMs?: number } = {}): () => void {
    const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
    const entry: RegisteredHook = { name, fn: fn as (context: never) => unknown, order: options.order ?? 'normal', owner: options.owner ?? 'anonymous', timeoutMs };
    this.#hooks.push(entry);
    return () => {
      this.#hooks = this.#hooks.filter((h) => h !== entry);
    };
  }

  /** Whether any hook is registered under `name`. */
  has(name: keyof AcpHooks): boolean {
    return this.#hooks.some((h) => h.name === name);
  }

  /**
   * Run the hooks of `name` in order (`pre`, normal, `post`; registration
   * order within each), one after another. The first failure stops the run
   * and is thrown, unless `failures` is given: then every hook runs and the
   * failures are collected there (used after an append, which cannot be undone).
   */
  async call<K extends keyof AcpHooks>(name: K, context: Parameters<AcpHooks[K]>[0], failures?: AcpError[]): Promise<void> {
    // Array.prototype.sort is stable: registration order holds within a rank.
    const hooks = this.#hooks.filter((h) => h.name === name).sort((a, b) => ORDER_RANK[a.order] - ORDER_RANK[b.order]);
    for (const hook of hooks) {
      try {
        const result = await callWithDeadline(hook, name, context);
        checkHookOutcome(name, result, context);
      } catch (error) {
        let failure: AcpError;
        if (error instanceof AcpRefusal) {
          const event = (context as { event?: { event?: unknown } }).event?.event;
          failure = new AcpError(`plugin '${hook.owner}' refused ${event === undefined ? 'the event' : pyStr(event)}: ${error.message}`, 2, 'plugin_refused');
        } else if (error instanceof AcpError && error.code === 'plugin_timeout') failure = error;
        else failure = error instanceof AcpPluginError ? error : new AcpPluginError(hook.owner, name, error);
        if (!failures) throw failure;
        failures.push(failure);
      }
    }
  }
}

/**
 * Hooks answer through their context (`refuse()`, `errors.push()`, `hints`),
 * never through a return value: a value returned (`return false` to veto,
 * say) would be ignored, so it is an error; so is a non-string message.
 */
function checkHookOutcome(name: keyof AcpHooks, result: unknown, context: unknown): void {
  if (result !== undefined) {
    const hint = name === 'append:before' ? '; to veto the event call refuse(message)' : '';
    throw new Error(`the hook returned ${result === null ? 'null' : typeof result} where nothing is expected (hooks answer through their context${hint})`);
  }
  const lists = name === 'validate' ? ['errors', 'warnings'] : name === 'next' ? ['hints'] : [];
  for (const key of lists) {
    const list = (context as Record<string, unknown>)[key];
    if (Array.isArray(list) && list.some((item) => typeof item !== 'string')) {
      const index = list.findIndex((item) => typeof item !== 'string');
      list.splice(index);
      throw new Error(`${key}[${index}] is not a string (push messages as strings)`);
    }
  }
}
