// acp's git commands over SSH share one connection (plugins/git/ssh.ts,
// issue 37): when, with which command, and when the user's own choice is
// left alone. The connection itself is exercised against a real sshd in
// test/git-servers.test.ts and measured by scripts/git-race.ts.
import { describe, expect, it } from 'vitest';
import type { GitEnv } from '../plugins/git/config.ts';
import { sharedSshArgs, sharingCommand, sshTarget } from '../plugins/git/ssh.ts';

/** A git environment whose `ssh -G` prints `sshConfig`, whose environment is `vars`, with acp's per-account caches at /home/u/.local/state/acp/validate. */
function fakeEnv(vars: Record<string, string>, sshConfig = 'controlmaster false\ncontrolpath none\n'): { env: GitEnv; ran: string[][]; made: string[] } {
  const ran: string[][] = [];
  const made: string[] = [];
  const env = {
    api: { sha256Hex: async () => 'abcdef0123456789' },
    host: {
      cacheDir: async () => '/home/u/.local/state/acp/validate',
      fs: { stat: async () => null, mkdir: async (path: string) => void made.push(path) },
    },
    runtime: {
      name: 'node',
      env: (name: string) => vars[name],
      run: async (argv: string[]) => {
        ran.push(argv);
        return { code: 0, stdout: sshConfig, stderr: '' };
      },
    },
  } as unknown as GitEnv;
  return { env, ran, made };
}

const config = (lines: string) => async (): Promise<string> => lines;

describe('sharing one SSH connection', () => {
  it('knows an SSH remote from the others', () => {
    expect(sshTarget('ssh://git@example.com:2222/srv/r.git')).toEqual({ host: 'example.com', user: 'git', port: '2222' });
    expect(sshTarget('ssh://example.com/r.git')).toEqual({ host: 'example.com' });
    expect(sshTarget('git@github.com:acme/r.git')).toEqual({ host: 'github.com', user: 'git' });
    expect(sshTarget('ssh://git@[::1]:22/r.git')).toEqual({ host: '::1', user: 'git', port: '22' });
    for (const other of ['https://example.com/r.git', '/srv/r.git', '../r.git', 'file:///srv/r.git', 'C:/repos/r.git']) expect(sshTarget(other)).toBeUndefined();
  });

  it("adds connection sharing to plain ssh and to the user's ssh command, never to another program or a choice of the user's", () => {
    const shared = "-o ControlMaster=auto -o 'ControlPath=/s/%C' -o ControlPersist=60";
    expect(sharingCommand({ envCommand: undefined, configCommand: undefined }, '/s')).toBe(`ssh ${shared}`);
    expect(sharingCommand({ envCommand: undefined, configCommand: 'ssh -i ~/.ssh/k' }, '/s')).toBe(`ssh -i ~/.ssh/k ${shared}`);
    expect(sharingCommand({ envCommand: undefined, configCommand: '/usr/bin/ssh -p 22' }, '/s')).toBe(`/usr/bin/ssh -p 22 ${shared}`);
    expect(sharingCommand({ envCommand: 'ssh -v', configCommand: undefined }, '/s')).toBeUndefined();
    expect(sharingCommand({ envCommand: undefined, configCommand: 'plink -batch' }, '/s')).toBeUndefined();
    expect(sharingCommand({ envCommand: undefined, configCommand: 'ssh -o ControlMaster=no' }, '/s')).toBeUndefined();
    // A socket path ssh cannot bind, or a directory the shell would misread: no sharing rather than a failing ssh.
    expect(sharingCommand({ envCommand: undefined, configCommand: undefined }, `/${'d'.repeat(60)}`)).toBeUndefined();
    expect(sharingCommand({ envCommand: undefined, configCommand: undefined }, "/it's")).toBeUndefined();
  });

  it("makes its socket directory beside acp's per-account state, one per ssh command (a key per account on one host), and asks ssh -G about the remote's host", async () => {
    const { env, ran, made } = fakeEnv({});
    const args = await sharedSshArgs(env, 'origin', config('remote.origin.url ssh://git@example.com:2222/r.git\ncore.sshcommand ssh -i /k\n'));
    expect(args).toEqual(['-c', "core.sshCommand=ssh -i /k -o ControlMaster=auto -o 'ControlPath=/home/u/.local/state/acp/ssh-abcdef01/%C' -o ControlPersist=60"]);
    expect(made).toEqual(['/home/u/.local/state/acp/ssh-abcdef01']);
    expect(ran).toEqual([['ssh', '-G', '-p', '2222', '-l', 'git', '--', 'example.com']]);
  });

  it('leaves git alone for another transport, a GIT_SSH_COMMAND or GIT_SSH, and an ssh configuration that shares connections already', async () => {
    expect(await sharedSshArgs(fakeEnv({}).env, 'origin', config('remote.origin.url https://example.com/r.git\n'))).toEqual([]);
    expect(await sharedSshArgs(fakeEnv({ GIT_SSH_COMMAND: 'ssh -v' }).env, 'origin', config('remote.origin.url git@h:r.git\n'))).toEqual([]);
    expect(await sharedSshArgs(fakeEnv({ GIT_SSH: '/bin/my-ssh' }).env, 'origin', config('remote.origin.url git@h:r.git\n'))).toEqual([]);
    expect(await sharedSshArgs(fakeEnv({}, 'controlmaster auto\ncontrolpath /tmp/%C\n').env, 'origin', config('remote.origin.url git@h:r.git\n'))).toEqual([]);
    // Another remote's URL is not this one's.
    expect(await sharedSshArgs(fakeEnv({}).env, 'origin', config('remote.upstream.url git@h:r.git\n'))).toEqual([]);
    expect(await sharedSshArgs(fakeEnv({}).env, 'origin', config('remote.origin.url git@h:r.git\n'))).toHaveLength(2);
  });
});
