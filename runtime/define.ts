/**
 * The identity helpers that give plugin and deliverable type definitions
 * their types; acp.ts re-exports them and hands them to every plugin in its
 * context. A built-in deliverable type needs none of them (it is a plain
 * object that `satisfies DeliverableType`, as a user's type can be), so it
 * imports no value of the core: test/architecture.test.ts holds it to that.
 * @module
 */
import type { AcpPlugin, CommandOptionSpec, CommandSpec, DeliverableType } from './types.ts';

/** Identity helper that gives a deliverable type definition its type. */
export function defineDeliverableType<T extends DeliverableType>(definition: T): T {
  return definition;
}

/**
 * Identity helper that gives a plugin definition its type. Not generic on
 * purpose: an object literal is checked for excess properties, so a hook
 * name typo (`'append:befor'`) is a TypeScript error.
 */
export function definePlugin(definition: AcpPlugin): AcpPlugin {
  return definition;
}

/**
 * Identity helper that types a command from its option data (as citty
 * does): `run(ctx)` gets `ctx.options.timeout` as a `number | undefined`
 * for `{ type: 'seconds' }`, a `string` for a required string option, a
 * `string[]` for a `multiple` one — no casts.
 */
export function defineCommand<const O extends Record<string, CommandOptionSpec>>(spec: CommandSpec<O>): CommandSpec {
  // run's parameter is narrower than the registry's general spec: sound, since the parser produced exactly these values.
  return spec as unknown as CommandSpec;
}
