// Which runtimes a test that is repeated per runtime runs on (issue 32).
//
//   quick  `npm test`: the machine's Node and the one other runtime the file
//          names. Each file names a different one (deno where the file has a
//          Deno-only test, bun, the binary, the newest other Node), so the
//          quick run as a whole still starts every runtime.
//   full   ACP_FULL=1 (`npm run test:all`, CI): every runtime, as `npm test`
//          did before.
//
// An explicit list (ACP_RUNTIMES, ACP_PLUGIN_RUNTIMES, ACP_RPC_RUNTIMES) is
// taken as it is at every size: the caller passes it as `listed`.
import { atLeast } from './scale.ts';

/**
 * The runtimes of `all` this run uses: `listed` when the environment lists
 * some, every one of `all` under ACP_FULL=1 or ACP_LONG=1, otherwise those of
 * `all` that are in `quick`, in `all`'s order.
 */
export function runtimesOfRun<T extends string>(all: readonly T[], quick: readonly T[], listed?: readonly T[]): T[] {
  if (listed) return [...listed];
  if (atLeast('full')) return [...all];
  return all.filter((runtime) => quick.includes(runtime));
}
