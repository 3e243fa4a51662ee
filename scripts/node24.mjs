#!/usr/bin/env node
// Runs a script of this project under a Node new enough for it (22.12), from any Node: plain
// JavaScript that Node 18 and 20 still run, so `npm start` and `npm test` work on an older machine.
//
//   node scripts/node24.mjs <script> [args…]   runs <script> (TypeScript too) with [args…]
//   node scripts/node24.mjs --server <script>  the same, with the server's Node flags (server-node-flags.mjs)
//   node scripts/node24.mjs --bin-dir          prints the bin directory of a Node 24 (for .ci/run)
//
// On Node 22.12 or newer nothing extra happens: the script runs in this process when this Node
// strips types and has node:sqlite by default (22.18+, 24), else in a child of the same Node with
// the flags. On an older Node it says so in one line and runs the script under Node 24 from the
// npm registry (the `node@24` package), installed once into ~/.cache/emqx-console-node24
// (NODE24_DIR to choose another directory); that Node's bin directory goes first on the PATH, so
// whatever the script starts as `node` is Node 24 too.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs'

const NEEDED = [22, 12, 0]
const FLAGS = ['--experimental-strip-types', '--experimental-sqlite']

function atLeast(version, wanted) {
  const parts = version.replace(/^v/, '').split('.').map(Number)
  for (let i = 0; i < wanted.length; i++) if ((parts[i] ?? 0) !== wanted[i]) return (parts[i] ?? 0) > wanted[i]
  return true
}

function node24Dir() {
  return process.env.NODE24_DIR || join(homedir(), '.cache', 'emqx-console-node24')
}

function node24Binary(dir = node24Dir()) {
  return join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node')
}

/** The path of a Node 24 binary, installed from the npm registry into node24Dir() the first time. */
function ensureNode24() {
  const dir = node24Dir()
  const binary = node24Binary(dir)
  if (existsSync(binary)) return binary
  // Installed beside and renamed into place, so two first runs at once never see half an install.
  const staging = `${dir}.installing-${process.pid}`
  mkdirSync(staging, { recursive: true })
  const npmCli = process.env.npm_execpath
  const [command, prefix] = npmCli && /\.c?js$/.test(npmCli) ? [process.execPath, [npmCli]] : ['npm', []]
  const install = spawnSync(command, [...prefix, 'install', '--prefix', staging, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', 'node@24'], {
    encoding: 'utf8',
    shell: process.platform === 'win32' && command === 'npm',
  })
  if (install.status !== 0) {
    rmSync(staging, { recursive: true, force: true })
    throw new Error(`installing node@24 from the npm registry failed:\n${install.stderr || install.error?.message || ''}`)
  }
  mkdirSync(dirname(dir), { recursive: true })
  // What an interrupted install before the staging directory existed may have left.
  if (existsSync(dir) && !existsSync(binary)) rmSync(dir, { recursive: true, force: true })
  try {
    renameSync(staging, dir)
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    if (!existsSync(binary)) throw error
  }
  return binary
}

/** Runs `node [FLAGS] [extra] script args` and ends this process as the child ends. */
function runChild(node, script, args, env = process.env, extra = []) {
  const child = spawn(node, [...FLAGS, ...extra, script, ...args], { stdio: 'inherit', env })
  // Ctrl+C reaches the child from the terminal; a SIGTERM sent to this process alone is passed on.
  process.on('SIGINT', () => {})
  process.on('SIGTERM', () => child.kill('SIGTERM'))
  child.on('error', (error) => {
    console.error(`${node}: ${error.message}`)
    process.exit(1)
  })
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal)
      process.kill(process.pid, signal)
    }
    process.exit(code ?? 1)
  })
}

async function main() {
  const server = process.argv[2] === '--server'
  const [first, ...rest] = process.argv.slice(server ? 3 : 2)
  // Flags V8 takes only at start-up: a process already running without them runs the script in a child.
  const extra = server ? SERVER_NODE_FLAGS.filter((flag) => !process.execArgv.includes(flag)) : []
  if (first === '--bin-dir') {
    console.log(dirname(ensureNode24()))
    return
  }
  if (!first) {
    console.error('usage: node scripts/node24.mjs [--server] <script> [args…] | --bin-dir')
    process.exit(2)
  }
  const script = resolve(first)
  if (atLeast(process.version, NEEDED)) {
    const inProcess = Boolean(process.features?.typescript) && atLeast(process.version, [22, 13, 0])
    if (!inProcess || extra.length > 0) return runChild(process.execPath, script, rest, process.env, extra)
    process.argv = [process.execPath, script, ...rest]
    await import(pathToFileURL(script).href)
    return
  }
  const installed = existsSync(node24Binary())
  console.error(
    `Node ${process.version} is older than the ${NEEDED.slice(0, 2).join('.')} this project needs: running under Node 24 from the npm registry` +
      ` (${installed ? '' : 'installing it once into '}${node24Dir()})`,
  )
  let node
  try {
    node = ensureNode24()
  } catch (error) {
    console.error(error.message)
    process.exit(1)
  }
  runChild(node, script, rest, { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` }, extra)
}

await main()
