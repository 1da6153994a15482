// Real git servers for the git tests and scripts/git-race.ts (issue 37),
// started from Debian's packages on loopback only: smart HTTP (`git
// http-backend` behind lighttpd, with basic authentication) and SSH
// (openssh-server on a free port, a key made for the run). Each server
// serves the bare repositories under its own directory and is stopped by
// its process id. Where a package is missing, `serverTools()` says which
// (tests skip with that reason in npm test; test:all requires them, and
// .ci/run installs them).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';
const LIGHTTPD = '/usr/sbin/lighttpd';
const SSHD = '/usr/sbin/sshd';

/** A running git server. */
export interface GitServer {
  kind: 'http' | 'ssh';
  /** Where its bare repositories live (a repository `name.git` there is served). */
  repos: string;
  /** The URL a clone uses for the repository `name` (credentials included for HTTP). */
  url(name: string): string;
  /** Git configuration a clone needs (`core.sshCommand` for SSH), as `-c` pairs. */
  config: Record<string, string>;
  /** HTTP only: replace the accepted password (a credential that expires). */
  setPassword(password: string): void;
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
  let password = 'secret';
  setPassword(password);
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
    url: (name) => `http://acp:${password}@127.0.0.1:${port}/git/${name}.git`,
    config: {},
    setPassword(next) {
      setPassword(next);
      password = next;
    },
    stop: () => stopChild(child),
  };
}

/**
 * SSH: openssh-server on 127.0.0.1, this user's login with a key made here;
 * repositories under `dir/repos` by absolute path. `multiplex`: the
 * clients share one connection (ssh's ControlMaster, as a user sets it in
 * ~/.ssh/config), so a poll does not pay a key exchange each round.
 */
export async function startSshServer(dir: string, options: { multiplex?: boolean } = {}): Promise<GitServer> {
  const repos = join(dir, 'repos');
  mkdirSync(repos, { recursive: true });
  const hostKey = join(dir, 'host_key');
  const clientKey = join(dir, 'client_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', clientKey]);
  execFileSync('cp', [`${clientKey}.pub`, join(dir, 'authorized_keys')]);
  // sshd's privilege separation directory (Debian's init script makes it; there is none here).
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const conf = join(dir, 'sshd_config');
  writeFileSync(conf, [
    `ListenAddress 127.0.0.1:${port}`,
    `HostKey ${hostKey}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
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
  const user = execFileSync('id', ['-un'], { encoding: 'utf8' }).trim();
  return {
    kind: 'ssh',
    repos,
    url: (name) => `ssh://${user}@127.0.0.1:${port}${join(repos, `${name}.git`)}`,
    config: { 'core.sshCommand': `ssh -i ${clientKey} -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR${options.multiplex ? ` -o ControlMaster=auto -o ControlPath=${dir}/cm-%C -o ControlPersist=60` : ''}` },
    setPassword() {
      throw new Error('the SSH server has no password');
    },
    stop: () => stopChild(child),
  };
}
