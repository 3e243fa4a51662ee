// Real database servers for the tests of the backends that MQTT authentication, authorization and
// data integration talk to: Debian's own PostgreSQL, MariaDB, Redis, OpenLDAP (slapd) and InfluxDB 1.x, each
// started on a free loopback port in a throwaway directory and stopped afterwards. Nothing is mocked.
// `.ci/run` installs the packages; elsewhere `apt-get install -y postgresql mariadb-server
// redis-server slapd ldap-utils influxdb`. Without them a test is skipped, except in CI, where it fails.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, connect as netConnect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface DbServer {
  host: string
  port: number
  /** A user that may do everything, with its password (empty where the server has no users). */
  user: string
  password: string
  /** The database (PostgreSQL, MariaDB) or base DN (LDAP) made for the test. */
  database: string
  stop(): Promise<void>
}

export type DbKind = 'postgresql' | 'mariadb' | 'redis' | 'ldap' | 'influxdb'

const PASSWORD = 'public-test-password'

/** Where Debian puts each server's programs; the first that exists is used. */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  return versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'postgres')))
}

const programs: Record<DbKind, () => boolean> = {
  postgresql: () => postgresBin() !== undefined,
  mariadb: () => existsSync('/usr/sbin/mariadbd') && existsSync('/usr/bin/mariadb-install-db'),
  redis: () => existsSync('/usr/bin/redis-server'),
  ldap: () => existsSync('/usr/sbin/slapd') && existsSync('/usr/sbin/slapadd'),
  influxdb: () => existsSync('/usr/bin/influxd'),
}

/** Whether the server's programs are installed; in CI a missing one is an error, not a skip. */
export function hasDbServer(kind: DbKind): boolean {
  const installed = programs[kind]()
  if (!installed && process.env.CI) throw new Error(`${kind} is not installed, and CI must test against it (.ci/run installs it)`)
  return installed
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export async function waitForPort(port: number, child: ChildProcess, what: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}:\n${output()}`)
    const open = await new Promise<boolean>((resolve) => {
      const socket = netConnect(port, '127.0.0.1')
      socket.once('connect', () => (socket.destroy(), resolve(true)))
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${what} did not listen on ${port} in 30 s:\n${output()}`)
}

/** Runs a server program, keeping what it prints for the error when it fails. */
export function run(command: string, args: string[], options: { user?: string; cwd?: string } = {}) {
  const [file, argv] = options.user ? ['runuser', ['-u', options.user, '--', command, ...args]] : [command, args]
  const child = spawn(file, argv, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
  return { child, output: () => output }
}

function runOnce(command: string, args: string[], options: { user?: string; input?: string } = {}): void {
  const [file, argv] = options.user ? ['runuser', ['-u', options.user, '--', command, ...args]] : [command, args]
  const result = spawnSync(file, argv, { input: options.input, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`)
}

export async function stopChild(child: ChildProcess, dir: string): Promise<void> {
  // A child ended by a signal has no exit code but a signal code: stopping it twice must not wait.
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  rmSync(dir, { recursive: true, force: true })
}

/** The account a server runs as: PostgreSQL refuses root, so as root it runs as Debian's `postgres`. */
function serviceUser(name: string): { user?: string; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {}
  const id = spawnSync('id', ['-u', name], { encoding: 'utf8' })
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' })
  if (id.status !== 0) throw new Error(`no ${name} user to run the server as`)
  return { user: name, uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

export function tempDir(kind: string, owner: { uid?: number; gid?: number } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `emqx-console-${kind}-`))
  if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid!)
  chmodSync(dir, 0o700)
  return dir
}

/** A server certificate and key (PEM) a server is started with to take TLS connections. */
export interface ServerTls {
  cert: string
  key: string
}

export async function startPostgres(options: { tls?: ServerTls } = {}): Promise<DbServer> {
  const bin = postgresBin()!
  const owner = serviceUser('postgres')
  const dir = tempDir('postgres', owner)
  const data = join(dir, 'data')
  const passwordFile = join(dir, 'password')
  writeFileSync(passwordFile, PASSWORD)
  if (owner.uid !== undefined) chownSync(passwordFile, owner.uid, owner.gid!)
  // Password authentication over TCP, as a real deployment has it.
  runOnce(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--pwfile', passwordFile, '--auth-host=scram-sha-256', '--auth-local=trust', '-E', 'UTF8'], owner)
  const port = await freePort()
  const tlsArgs: string[] = []
  if (options.tls) {
    // PostgreSQL takes a key only when its own user owns it and no one else may read it.
    for (const [file, text] of [['server.crt', options.tls.cert], ['server.key', options.tls.key]] as const) {
      writeFileSync(join(dir, file), text, { mode: 0o600 })
      if (owner.uid !== undefined) chownSync(join(dir, file), owner.uid, owner.gid!)
    }
    tlsArgs.push('-c', 'ssl=on', '-c', `ssl_cert_file=${join(dir, 'server.crt')}`, '-c', `ssl_key_file=${join(dir, 'server.key')}`)
  }
  const server = run(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', ...tlsArgs], owner)
  await waitForPort(port, server.child, 'postgres', server.output)
  // The port opens before the server takes connections ('the database system is starting up').
  for (let attempt = 0; ; attempt++) {
    try {
      runOnce(join(bin, 'createdb'), ['-h', dir, '-p', String(port), '-U', 'postgres', 'mqtt'], owner)
      break
    } catch (error) {
      if (attempt >= 50 || !/starting up/.test(String(error))) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return { host: '127.0.0.1', port, user: 'postgres', password: PASSWORD, database: 'mqtt', stop: () => stopChild(server.child, dir) }
}

export async function startMariadb(options: { tls?: ServerTls } = {}): Promise<DbServer> {
  const dir = tempDir('mariadb')
  const tlsArgs: string[] = []
  if (options.tls) {
    writeFileSync(join(dir, 'server.crt'), options.tls.cert)
    writeFileSync(join(dir, 'server.key'), options.tls.key, { mode: 0o600 })
    tlsArgs.push(`--ssl-cert=${join(dir, 'server.crt')}`, `--ssl-key=${join(dir, 'server.key')}`)
  }
  const data = join(dir, 'data')
  const socket = join(dir, 'mysqld.sock')
  const asRoot = process.getuid?.() === 0
  // Its own tmpdir: installs running at once in the shared /tmp collide on their temporary tables' names.
  runOnce('/usr/bin/mariadb-install-db', ['--no-defaults', `--datadir=${data}`, `--tmpdir=${dir}`, ...(asRoot ? ['--user=root'] : []), '--auth-root-authentication-method=normal', '--skip-test-db'])
  const port = await freePort()
  const server = run('/usr/sbin/mariadbd', [
    '--no-defaults',
    `--datadir=${data}`,
    `--socket=${socket}`,
    `--pid-file=${join(dir, 'mysqld.pid')}`,
    `--tmpdir=${dir}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    '--skip-log-bin',
    '--innodb-buffer-pool-size=16M',
    ...(asRoot ? ['--user=root'] : []),
    ...tlsArgs,
  ])
  await waitForPort(port, server.child, 'mariadbd', server.output)
  const sql = `CREATE DATABASE mqtt; CREATE USER 'emqx'@'%' IDENTIFIED BY '${PASSWORD}'; GRANT ALL ON *.* TO 'emqx'@'%'; FLUSH PRIVILEGES;`
  runOnce('/usr/bin/mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', sql])
  return { host: '127.0.0.1', port, user: 'emqx', password: PASSWORD, database: 'mqtt', stop: () => stopChild(server.child, dir) }
}

/** redis-server; with `tls` it takes TLS connections only (`--tls-port`, no client certificate asked). */
export async function startRedis(options: { tls?: ServerTls } = {}): Promise<DbServer> {
  const dir = tempDir('redis')
  const port = await freePort()
  const tlsArgs: string[] = []
  if (options.tls) {
    writeFileSync(join(dir, 'server.crt'), options.tls.cert)
    writeFileSync(join(dir, 'server.key'), options.tls.key, { mode: 0o600 })
    tlsArgs.push('--tls-cert-file', join(dir, 'server.crt'), '--tls-key-file', join(dir, 'server.key'), '--tls-auth-clients', 'no')
  }
  const ports = options.tls ? ['--port', '0', '--tls-port', String(port)] : ['--port', String(port)]
  const server = run('/usr/bin/redis-server', [...ports, '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--requirepass', PASSWORD, ...tlsArgs])
  await waitForPort(port, server.child, 'redis-server', server.output)
  return { host: '127.0.0.1', port, user: '', password: PASSWORD, database: '0', stop: () => stopChild(server.child, dir) }
}

/** A Redis Cluster of three primaries (no replicas) on free ports, joined with `redis-cli --cluster create`. */
export async function startRedisCluster(): Promise<DbServer & { ports: number[] }> {
  const dir = tempDir('redis-cluster')
  const ports = [await freePort(), await freePort(), await freePort()]
  const servers = ports.map((port) => {
    const nodeDir = join(dir, String(port))
    spawnSync('mkdir', ['-p', nodeDir])
    const server = run('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', nodeDir, '--save', '', '--appendonly', 'no', '--cluster-enabled', 'yes', '--requirepass', PASSWORD, '--masterauth', PASSWORD])
    return { port, server, nodeDir }
  })
  for (const { port, server } of servers) await waitForPort(port, server.child, 'redis-server (cluster)', server.output)
  runOnce('/usr/bin/redis-cli', ['-a', PASSWORD, '--no-auth-warning', '--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-yes'])
  const stop = async () => {
    for (const { server, nodeDir } of servers) await stopChild(server.child, nodeDir)
    rmSync(dir, { recursive: true, force: true })
  }
  return { host: '127.0.0.1', port: ports[0], ports, user: '', password: PASSWORD, database: '0', stop }
}

/** A Redis Sentinel (redis-server in sentinel mode) watching `primary` under the name `mymaster`. */
export async function startRedisSentinel(primary: DbServer): Promise<DbServer> {
  const dir = tempDir('redis-sentinel')
  const port = await freePort()
  const config = join(dir, 'sentinel.conf')
  // Sentinel rewrites its configuration file, so it lives in the throwaway directory.
  writeFileSync(
    config,
    [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor mymaster ${primary.host} ${primary.port} 1`, `sentinel auth-pass mymaster ${primary.password}`, ''].join('\n'),
  )
  const server = run('/usr/bin/redis-server', [config, '--sentinel'])
  await waitForPort(port, server.child, 'redis-sentinel', server.output)
  return { host: '127.0.0.1', port, user: '', password: '', database: 'mymaster', stop: () => stopChild(server.child, dir) }
}

/**
 * The attributes and classes EMQX's LDAP backends read (the OIDs of EMQX's own test schema):
 * `mqttUser` entries carry publish, subscribe and pub/sub topics and `isSuperuser`.
 */
const MQTT_SCHEMA = [
  ['1.3.6.1.4.1.11.2.53.2.2.3.1.2.3.1.4', 'isSuperuser', 'EQUALITY booleanMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.7 SINGLE-VALUE'],
  ['1.3.6.1.4.1.11.2.53.2.2.3.1.2.3.4.1', 'mqttPublishTopic', 'EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15'],
  ['1.3.6.1.4.1.11.2.53.2.2.3.1.2.3.4.2', 'mqttSubscriptionTopic', 'EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15'],
  ['1.3.6.1.4.1.11.2.53.2.2.3.1.2.3.4.3', 'mqttPubSubTopic', 'EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15'],
]
  .map(([oid, name, rest]) => `attributetype ( ${oid} NAME '${name}' ${rest} )`)
  .concat("objectclass ( 1.3.6.1.4.1.11.2.53.2.2.3.1.2.3.4 NAME 'mqttUser' AUXILIARY MAY ( mqttPublishTopic $ mqttSubscriptionTopic $ mqttPubSubTopic $ isSuperuser ) )")
  .join('\n')

/** slapd with one mdb database under `dc=emqx,dc=io`, its admin `cn=admin,dc=emqx,dc=io`, and the MQTT schema. */
export async function startLdap(): Promise<DbServer> {
  const dir = tempDir('slapd')
  const base = 'dc=emqx,dc=io'
  const admin = `cn=admin,${base}`
  const hash = spawnSync('/usr/sbin/slappasswd', ['-s', PASSWORD], { encoding: 'utf8' }).stdout.trim()
  const schema = '/etc/ldap/schema'
  writeFileSync(join(dir, 'mqtt.schema'), `${MQTT_SCHEMA}\n`)
  writeFileSync(
    join(dir, 'slapd.conf'),
    [
      `include ${schema}/core.schema`,
      `include ${schema}/cosine.schema`,
      `include ${schema}/inetorgperson.schema`,
      `include ${schema}/nis.schema`,
      `include ${join(dir, 'mqtt.schema')}`,
      `pidfile ${join(dir, 'slapd.pid')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      `suffix "${base}"`,
      `rootdn "${admin}"`,
      `rootpw ${hash}`,
      `directory ${join(dir, 'db')}`,
      'maxsize 10485760',
      '',
    ].join('\n'),
  )
  spawnSync('mkdir', ['-p', join(dir, 'db')])
  runOnce('/usr/sbin/slapadd', ['-f', join(dir, 'slapd.conf'), '-b', base], {
    input: `dn: ${base}\nobjectClass: dcObject\nobjectClass: organization\no: emqx\ndc: emqx\n\ndn: ou=mqtt,${base}\nobjectClass: organizationalUnit\nou: mqtt\n`,
  })
  const port = await freePort()
  // -d 0: stay in the foreground, so stopping the child stops the server.
  const server = run('/usr/sbin/slapd', ['-d', '0', '-f', join(dir, 'slapd.conf'), '-h', `ldap://127.0.0.1:${port}/`])
  await waitForPort(port, server.child, 'slapd', server.output)
  return { host: '127.0.0.1', port, user: admin, password: PASSWORD, database: base, stop: () => stopChild(server.child, dir) }
}

/**
 * Debian's InfluxDB 1.x (`influxd`) with authentication on, its HTTP API and RPC on free loopback
 * ports, an admin user and the database `mqtt`.
 */
export async function startInfluxdb(): Promise<DbServer> {
  const dir = tempDir('influxdb')
  const [port, rpcPort] = [await freePort(), await freePort()]
  writeFileSync(
    join(dir, 'influxdb.conf'),
    [
      'reporting-disabled = true',
      `bind-address = "127.0.0.1:${rpcPort}"`,
      '[meta]',
      `  dir = "${join(dir, 'meta')}"`,
      '[data]',
      `  dir = "${join(dir, 'data')}"`,
      `  wal-dir = "${join(dir, 'wal')}"`,
      '  query-log-enabled = false',
      '[http]',
      '  enabled = true',
      `  bind-address = "127.0.0.1:${port}"`,
      '  auth-enabled = true',
      '  log-enabled = false',
      '[monitor]',
      '  store-enabled = false',
      '[continuous_queries]',
      '  enabled = false',
      '',
    ].join('\n'),
  )
  const server = run('/usr/bin/influxd', ['-config', join(dir, 'influxdb.conf')])
  await waitForPort(port, server.child, 'influxd', server.output)
  const query = async (q: string, auth = true) => {
    const credentials = new URLSearchParams(auth ? { u: 'admin', p: PASSWORD } : {})
    const answer = await fetch(`http://127.0.0.1:${port}/query?${credentials}`, { method: 'POST', body: new URLSearchParams({ q }) })
    if (!answer.ok) throw new Error(`influxd: ${q} answered ${answer.status} ${await answer.text()}`)
  }
  // With no user yet, authentication lets the first admin be created.
  await query(`CREATE USER admin WITH PASSWORD '${PASSWORD}' WITH ALL PRIVILEGES`, false)
  await query('CREATE DATABASE mqtt')
  return { host: '127.0.0.1', port, user: 'admin', password: PASSWORD, database: 'mqtt', stop: () => stopChild(server.child, dir) }
}

export const startDbServer: Record<DbKind, () => Promise<DbServer>> = {
  postgresql: startPostgres,
  mariadb: startMariadb,
  redis: startRedis,
  ldap: startLdap,
  influxdb: startInfluxdb,
}
