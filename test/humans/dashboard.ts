// `acp dashboard` run in this process for the tests: started, its printed
// URL awaited, stopped by aborting its signal (as Ctrl-C does).
import { acp, type Captured } from './context.ts';

/** A running dashboard: its URL, and `stop()` (resolves with what the command printed and its exit code). */
export async function dashboard(root: string, extra: string[] = []): Promise<{ url: URL; stop(): Promise<Captured> }> {
  const controller = new AbortController();
  let printed = '';
  let announce: (url: string) => void = () => undefined;
  const started = new Promise<string>((resolve) => (announce = resolve));
  const run = acp(['dashboard', '--root', root, ...extra], {
    signal: controller.signal,
    onStdout: (text) => {
      printed += text;
      const url = /^dashboard: (\S+)$/m.exec(printed)?.[1];
      if (url) announce(url);
    },
  });
  const url = await Promise.race([started, run.then((r) => Promise.reject(new Error(`dashboard ended: ${r.rc} ${r.stderr}`)))]);
  return {
    url: new URL(url),
    stop: async () => {
      controller.abort();
      return run;
    },
  };
}

