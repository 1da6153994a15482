// Real git servers for the git tests and scripts/git-race.ts (issue 37),
// started from Debian's packages on loopback only: smart HTTP (`git
// http-backend` behind lighttpd, with basic authentication) and SSH
// (openssh-server on a free port, a key made for the run). Each server
// serves the bare repositories under its own directory and is stopped by
// its process id. Where a package is missing, `serverTools()` says which
// (tests skip with that reason in npm test; test:all requires them, and
// .ci/run installs them).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';
const LIGHTTPD = '/usr/sbin/lighttpd';
const SSHD = '/usr/sbin/sshd';
const GITOLITE = '/usr/bin/gitolite';

/** A running git server. */
export interface GitServer {
  kind: 'http' | 'ssh';
  /** Where its bare repositories live (a repository `name.git` there is served). */
  repos: string;
  /** The URL a clone uses for the repository `name` (credentials included for HTTP). */
  url(name: string): string;
  /** Git configuration a clone needs (`core.sshCommand` for SSH), as `-c` pairs. */
  config: Record<string, string>;
  /** The clones' credential stops being accepted (a password changed over HTTP, the key taken out of authorized_keys over SSH), or is accepted again. */
  expire(expired: boolean): void;
  stop(): Promise<void>;
}

/** Why the servers cannot run here (a missing package, as the apt-get line that installs it), or undefined. */
export function serverTools(): string | undefined {
  const missing = [[LIGHTTPD, 'lighttpd'], [SSHD, 'openssh-server'], [HTTP_BACKEND, 'git'], ['/usr/bin/ssh-keygen', 'openssh-client']].filter(([path]) => !existsSync(path!)).map(([, pkg]) => pkg!);
  return missing.length ? `no real git server: ${missing.join(', ')} not installed (apt-get install ${missing.join(' ')}; npm run test:all requires it)` : undefined;
}

/** A TCP port free on 127.0.0.1 right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Wait (bounded) until something accepts connections on the port; the server's log in the error otherwise. */
async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server did not listen on 127.0.0.1:${port} within 5 s: ${log()}`);
}

/** Start a child in the foreground of its own and keep its output for errors. */
function startChild(argv: string[]): { child: ChildProcess; log: () => string } {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (c: Buffer) => void (text += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (text += c.toString()));
  return { child, log: () => text.slice(-2000) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Smart HTTP: lighttpd on 127.0.0.1 running git http-backend for every repository under `dir/repos`, basic authentication (user `acp`). */
export async function startHttpServer(dir: string): Promise<GitServer> {
  const repos = join(dir, 'repos');
  mkdirSync(repos, { recursive: true });
  const users = join(dir, 'users');
  const setPassword = (password: string): void => writeFileSync(users, `acp:${password}\n`);
  setPassword('secret');
  const port = await freePort();
  const conf = join(dir, 'lighttpd.conf');
  writeFileSync(conf, [
    `server.document-root = "${dir}"`,
    `server.bind = "127.0.0.1"`,
    `server.port = ${port}`,
    `server.errorlog = "${join(dir, 'error.log')}"`,
    `server.modules = ("mod_alias", "mod_auth", "mod_authn_file", "mod_cgi", "mod_setenv")`,
    `alias.url = ("/git" => "${HTTP_BACKEND}")`,
    `$HTTP["url"] =~ "^/git" {`,
    `  cgi.assign = ("" => "")`,
    `  setenv.add-environment = ("GIT_PROJECT_ROOT" => "${repos}", "GIT_HTTP_EXPORT_ALL" => "1")`,
    `  auth.backend = "plain"`,
    `  auth.backend.plain.userfile = "${users}"`,
    `  auth.require = ("" => ("method" => "basic", "realm" => "git", "require" => "valid-user"))`,
    `}`,
    '',
  ].join('\n'));
  const { child, log } = startChild([LIGHTTPD, '-D', '-f', conf]);
  await listening(port, child, log);
  return {
    kind: 'http',
    repos,
    url: (name) => `http://acp:secret@127.0.0.1:${port}/git/${name}.git`,
    config: {},
    expire: (expired) => setPassword(expired ? 'rotated' : 'secret'),
    stop: () => stopChild(child),
  };
}

/** sshd on a free port of 127.0.0.1 that lets this user in with the keys of `authorized` (a file the caller writes); its port and the running child. */
async function startSshd(dir: string, authorized: string): Promise<{ port: number; child: ChildProcess }> {
  const hostKey = join(dir, 'host_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  // sshd's privilege separation directory (Debian's init script makes it; there is none here).
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const conf = join(dir, 'sshd_config');
  writeFileSync(conf, [
    `ListenAddress 127.0.0.1:${port}`,
    `HostKey ${hostKey}`,
    `AuthorizedKeysFile ${authorized}`,
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'StrictModes no',
    'UsePAM no',
    `PidFile ${join(dir, 'sshd.pid')}`,
    'MaxStartups 100:30:200',
    'MaxSessions 100',
    '',
  ].join('\n'));
  const { child, log } = startChild([SSHD, '-D', '-e', '-f', conf]);
  await listening(port, child, log);
  return { port, child };
}

/** A client key made in `dir`, and the ssh command that uses it (no prompts, no known_hosts). */
function clientKey(dir: string, name: string): { key: string; sshCommand: string } {
  const key = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', key]);
  return { key, sshCommand: `ssh -i ${key} -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR` };
}

const USER = (): string => execFileSync('id', ['-un'], { encoding: 'utf8' }).trim();

/**
 * SSH: openssh-server on 127.0.0.1, this user's login with a key made here;
 * repositories under `dir/repos` by absolute path. `multiplex`: the
 * clients' own ssh command shares one connection (ssh's ControlMaster, as a
 * user sets it), which acp then leaves alone; without it acp shares one itself.
 */
export async function startSshServer(dir: string, options: { multiplex?: boolean } = {}): Promise<GitServer> {
  const repos = join(dir, 'repos');
  mkdirSync(repos, { recursive: true });
  const client = clientKey(dir, 'client_key');
  const authorized = join(dir, 'authorized_keys');
  const key = readFileSync(`${client.key}.pub`);
  writeFileSync(authorized, key);
  const { port, child } = await startSshd(dir, authorized);
  return {
    kind: 'ssh',
    repos,
    url: (name) => `ssh://${USER()}@127.0.0.1:${port}${join(repos, `${name}.git`)}`,
    config: { 'core.sshCommand': `${client.sshCommand}${options.multiplex ? ` -o ControlMaster=auto -o ControlPath=${dir}/cm-%C -o ControlPersist=60` : ''}` },
    expire: (expired) => writeFileSync(authorized, expired ? '' : key),
    stop: () => stopChild(child),
  };
}

/** Why gitolite cannot run here, or undefined. */
export function gitoliteTool(): string | undefined {
  return existsSync(GITOLITE) ? undefined : 'no gitolite: gitolite3 not installed (apt-get install gitolite3; npm run test:all requires it)';
}

/** A gitolite server (see {@link startGitoliteServer}). */
export interface GitoliteServer {
  /** Where gitolite keeps its repositories. */
  repos: string;
  /** The URL of the repository `name`. */
  url(name: string): string;
  /** The git configuration of a clone that is gitolite user `user` (its key). */
  configAs(user: string): Record<string, string>;
  /** Replace gitolite.conf's access rules (after the admin repository's) and compile them, as a push to gitolite-admin would. */
  setRules(rules: string): void;
  stop(): Promise<void>;
}

/**
 * gitolite3 behind openssh-server on 127.0.0.1, run as this user with its
 * own HOME in `dir` (the machine's accounts are not touched): each of
 * `users` has a key; sshd's authorized_keys is gitolite's, each key's
 * forced command gitolite-shell with that HOME.
 */
export async function startGitoliteServer(dir: string, users: string[]): Promise<GitoliteServer> {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const keys = new Map([...users, 'admin'].map((user) => [user, clientKey(dir, `${user}_key`)]));
  // gitolite names a user by its key file's name.
  execFileSync('cp', [`${keys.get('admin')!.key}.pub`, join(dir, 'admin.pub')]);
  execFileSync(GITOLITE, ['setup', '-pk', join(dir, 'admin.pub')], { env, stdio: 'ignore' });
  const keydir = join(home, '.gitolite', 'keydir');
  for (const user of users) execFileSync('cp', [`${keys.get(user)!.key}.pub`, join(keydir, `${user}.pub`)]);
  const authorized = join(home, '.ssh', 'authorized_keys');
  const setRules = (rules: string): void => {
    writeFileSync(join(home, '.gitolite', 'conf', 'gitolite.conf'), `repo gitolite-admin\n    RW+ = admin\n\n${rules}\n`);
    // What the admin repository's hook does after a push: compile the rules, create the repositories they name, rewrite authorized_keys.
    execFileSync(GITOLITE, ['setup'], { env, stdio: 'ignore' });
    // sshd runs the forced command with this account's real HOME: gitolite-shell needs the one it was set up in.
    writeFileSync(authorized, readFileSync(authorized, 'utf8').replaceAll('command="', `command="env HOME=${home} `));
  };
  setRules('');
  const { port, child } = await startSshd(dir, authorized);
  return {
    repos: join(home, 'repositories'),
    url: (name) => `ssh://${USER()}@127.0.0.1:${port}/${name}`,
    configAs: (user) => ({ 'core.sshCommand': keys.get(user)!.sshCommand }),
    setRules,
    stop: () => stopChild(child),
  };
}
