/**
 * Built-in plugin `git`: a collaboration folder committed in a git
 * repository and driven from many clones. `append --git` is an optimistic
 * transaction (fetch, fast-forward, append, commit, push; retried on a
 * rejected push), `wait --git` polls the remote with `git fetch`, and
 * `doctor --git` checks the folder's git history, `init --git` commits and
 * pushes a new folder, `serve --git` polls the
 * remote for the server's subscribers. Enabled by `--git` or by a
 * `git:` section in acp.config.yaml; nothing changes for other folders.
 * This module only describes the commands; plugins/git/ loads when one runs.
 * See docs/git.md.
 * @module
 */
import type { AcpPlugin, CommandContext, CommandSpec, PluginContext } from '../acp.ts';

const GIT_FLAG = { type: 'boolean', description: 'Drive the folder through git (also enabled by a git: section in acp.config.yaml); see docs/git.md' } as const;

/** The settings when git is enabled for this run, else undefined (then the wrapped command runs unchanged). */
async function enabled(ctx: CommandContext) {
  // Most runs have neither --git nor a git: section; saying so needs no
  // chunk (loading one starts Node's ES module loader: ~5 ms of an append).
  const sections = ctx.options['no-config'] === true ? undefined : ctx.registry.config?.sections;
  const hasSection = typeof sections === 'object' && sections !== null && Object.hasOwn(sections, 'git');
  if (ctx.options.git !== true && !hasSection) return undefined;
  const { gitSettings } = await import('./git/config.ts');
  return gitSettings(ctx);
}

const appendExtension: CommandSpec = {
  name: 'append',
  extend: true,
  description: 'Append as a git transaction (fetch, append, commit, push)',
  options: { git: GIT_FLAG },
  async run(ctx) {
    const settings = await enabled(ctx);
    if (!settings) return ctx.next();
    const { gitAppend } = await import('./git/append.ts');
    return gitAppend(ctx, settings);
  },
};

const waitExtension: CommandSpec = {
  name: 'wait',
  extend: true,
  description: 'Wait across clones by polling the remote with git fetch',
  options: { git: GIT_FLAG },
  async run(ctx) {
    const settings = await enabled(ctx);
    if (!settings) return ctx.next();
    const { gitWait } = await import('./git/wait.ts');
    return gitWait(ctx, settings);
  },
};

const doctorExtension: CommandSpec = {
  name: 'doctor',
  extend: true,
  description: "Also check the folder's git state",
  options: { git: GIT_FLAG },
  async run(ctx) {
    const settings = await enabled(ctx);
    const result = await ctx.next();
    if (!settings) return result;
    const { gitDoctor } = await import('./git/doctor.ts');
    return gitDoctor(ctx, settings, result);
  },
};

const initExtension: CommandSpec = {
  name: 'init',
  extend: true,
  description: 'Also commit and push the new folder',
  options: { git: GIT_FLAG },
  async run(ctx) {
    const settings = await enabled(ctx);
    if (!settings) return ctx.next();
    const { gitInit } = await import('./git/init.ts');
    return gitInit(ctx, settings);
  },
};

const serveExtension: CommandSpec = {
  name: 'serve',
  extend: true,
  description: "Poll the remote of each watched folder's repository for the subscribers",
  options: { git: GIT_FLAG },
  async run(ctx) {
    const settings = await enabled(ctx);
    if (!settings) return ctx.next();
    const { gitServe } = await import('./git/serve.ts');
    return gitServe(ctx, settings);
  },
};

/** The `git` plugin. */
export default (context: PluginContext): AcpPlugin => context.definePlugin({ name: 'git', commands: [initExtension, appendExtension, waitExtension, doctorExtension, serveExtension] });
