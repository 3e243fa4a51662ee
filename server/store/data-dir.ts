// The data directory holds the token signing secret and the password hashes: it is created 0700
// and the database files (with SQLite's -wal and -shm) are 0600. Looser modes left by an older
// release or a umask are tightened at start, with one line on stderr saying so. A directory with
// the sticky bit (a shared one such as /tmp) is never changed, only warned about.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

export const DATA_DIR_MODE = 0o700
export const DATA_FILE_MODE = 0o600
const STICKY = 0o1000

type Warn = (line: string) => void

/** Creates `dataDir` (0700) or tightens it, and creates `fileName` in it (0600) if missing. */
export function prepareDataDir(dataDir: string, fileName: string, warn: Warn = console.warn): void {
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE })
  const stat = statSync(dataDir)
  if ((stat.mode & 0o077) !== 0) {
    if ((stat.mode & STICKY) !== 0 || !ownedByUs(stat.uid)) {
      warn(`data directory ${dataDir} is shared (mode ${octal(stat.mode)}): the signing secret in it may be readable by others; set DATA_DIR to a directory of its own`)
    } else {
      tighten(dataDir, DATA_DIR_MODE, stat.mode, warn, 'data directory')
    }
  }
  // SQLite gives its -wal and -shm files the database file's mode, so the file exists 0600 first.
  const file = join(dataDir, fileName)
  if (!existsSync(file)) closeSync(openSync(file, 'a', DATA_FILE_MODE))
  tightenDataFiles(dataDir, fileName, warn)
}

/** Tightens `fileName` and its SQLite companions (`-wal`, `-shm`, `-journal`) to 0600. */
export function tightenDataFiles(dataDir: string, fileName: string, warn: Warn = console.warn): void {
  for (const entry of readdirSync(dataDir)) {
    if (!entry.startsWith(fileName)) continue
    const path = join(dataDir, entry)
    const stat = statSync(path)
    if (stat.isFile() && (stat.mode & 0o077) !== 0 && ownedByUs(stat.uid)) tighten(path, DATA_FILE_MODE, stat.mode, warn, 'data file')
  }
}

function tighten(path: string, mode: number, was: number, warn: Warn, what: string): void {
  try {
    chmodSync(path, mode)
    warn(`${what} ${path} was mode ${octal(was)}, now ${octal(mode)} (it holds the token signing secret)`)
  } catch (error) {
    warn(`${what} ${path} is mode ${octal(was)} and could not be made ${octal(mode)}: ${(error as Error).message}`)
  }
}

function ownedByUs(uid: number): boolean {
  return process.getuid === undefined || process.getuid() === uid
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`
}
