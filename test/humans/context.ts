// The humans' commands through the real CLI, in this process: argv parsing,
// the built-in plugin registration and error mapping are those of `acp`.
import { runCli } from '../../acp.ts';

/** What a run printed. */
export interface Captured {
  rc: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link acp}. */
export interface RunOptions {
  color?: boolean;
  signal?: AbortSignal;
  /** Called with each chunk written to stdout (to watch a follower). */
  onStdout?(text: string): void;
}

/** Run `acp {argv}` in-process. */
export async function acp(argv: string[], options: RunOptions = {}): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const rc = await runCli({
    argv,
    stdout: (t) => {
      stdout += t;
      options.onStdout?.(t);
    },
    stderr: (t) => void (stderr += t),
    color: options.color ?? false,
    signal: options.signal,
  });
  return { rc, stdout, stderr };
}
