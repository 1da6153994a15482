/**
 * Built-in plugin `git`: a collaboration folder committed in a git
 * repository and driven from many clones. It provides the `git` store
 * (plugins/git/store.ts), so every write of the one transaction — `append`
 * from the CLI, the library, the JSON-RPC and MCP servers, `freeze`, a
 * document written through a server — is fetched, checked, committed and
 * pushed, and every waiter (`wait`, the servers' subscribers) follows the
 * remote; `init` makes the folder through the store too (committed and
 * pushed). It also extends `doctor` (the folder's git history). Enabled by `--git` or a `git:`
 * section in acp.config.yaml; nothing changes for other folders. This
 * module only describes the store and commands; plugins/git/ loads when
 * one is used. See docs/git.md.
 * @module
 */
import type { AcpPlugin, CommandContext, CommandSpec, PluginContext, StoreProvider } from '../runtime/types.ts';
import type { RemotePolls } from './git/store.ts';

const GIT_FLAG = { name: 'git', description: 'Drive the folder through git (also enabled by a git: section in acp.config.yaml); see docs/git.md' };

/** Whether a run has git on: its flag, or a `git:` section in the configuration the loader read (none under --no-config). */
function mentionsGit(requested: boolean, config: CommandContext['registry']['config']): boolean {
  // Most runs have neither; saying so needs no chunk (loading one costs ~5 ms of an append).
  return requested || (typeof config?.sections === 'object' && config.sections !== null && Object.hasOwn(config.sections, 'git'));
}

/** The git store, for the folders of a run that has git on. */
function gitStoreProvider(context: PluginContext): StoreProvider {
  let polls: RemotePolls | undefined;
  return {
    name: 'git',
    flag: GIT_FLAG,
    async open({ host, requested, config }) {
      if (!mentionsGit(requested, config)) return undefined;
      const [{ gitSettings }, { gitStore, RemotePolls }] = await Promise.all([import('./git/config.ts'), import('./git/store.ts')]);
      const settings = await gitSettings(context.api, config, requested);
      if (!settings) return undefined;
      polls ??= new RemotePolls();
      return gitStore({ api: context.api, host, runtime: context.runtime }, settings, polls);
    },
  };
}

/** The settings for a command that extends doctor, when git is on for this run. */
async function settingsOf(ctx: CommandContext) {
  const requested = ctx.options.git === true;
  if (!mentionsGit(requested, ctx.registry.config)) return undefined;
  const { gitSettings } = await import('./git/config.ts');
  return gitSettings(ctx.api, ctx.registry.config, requested);
}

const doctorExtension: CommandSpec = {
  name: 'doctor',
  extend: true,
  description: "Also check the folder's git state",
  options: { git: { type: 'boolean', description: GIT_FLAG.description } },
  async run(ctx) {
    const settings = await settingsOf(ctx);
    const result = await ctx.next();
    if (!settings) return result;
    const { gitDoctor } = await import('./git/doctor.ts');
    return gitDoctor(ctx, settings, result);
  },
};

/** The `git` plugin. */
export default (context: PluginContext): AcpPlugin => context.definePlugin({ name: 'git', stores: [gitStoreProvider(context)], commands: [doctorExtension] });
