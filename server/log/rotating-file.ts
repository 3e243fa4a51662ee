// A log file that rotates by size: when the next line would take it past `rotationSize`, emqx.log
// becomes emqx.log.1 (emqx.log.1 becomes .2, ...) and a fresh emqx.log starts, so at most
// `rotationCount` files exist. Lines are written synchronously, so a record is on disk when the
// call that logged it returns (and nothing is lost on exit).
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Creates `dir` and its missing parents one at a time: Node's recursive mkdir spins forever on
 * some file systems that refuse it (/proc), and a log path is whatever an operator typed.
 */
function makeDirectory(dir: string): void {
  if (existsSync(dir)) return
  const parent = dirname(dir)
  if (parent !== dir) makeDirectory(parent)
  mkdirSync(dir)
}

/** Opens (creating its directory) `path` for appending, or throws saying why it cannot be written. */
function openForAppend(path: string): number {
  try {
    makeDirectory(dirname(path))
    return openSync(path, 'a', 0o640)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Error(`cannot write to ${path}${code ? ` (${code})` : ''}`, { cause: error })
  }
}

/** Throws, saying why, when a log file at `path` could not be opened for appending. */
export function checkWritable(path: string): void {
  closeSync(openForAppend(path))
}

export class RotatingFile {
  readonly path: string
  private readonly rotationSize: number
  private readonly rotationCount: number
  private fd: number
  private size: number

  /** `rotationSize` in bytes (Infinity: never rotate); `rotationCount` files at most, this one included. */
  constructor(path: string, rotationSize: number, rotationCount: number) {
    this.path = path
    this.rotationSize = rotationSize
    this.rotationCount = rotationCount
    this.fd = openForAppend(path)
    this.size = fstatSync(this.fd).size
  }

  write(line: string): void {
    const bytes = Buffer.from(line, 'utf8')
    if (this.size > 0 && this.size + bytes.length > this.rotationSize) this.rotate()
    writeSync(this.fd, bytes)
    this.size += bytes.length
  }

  private rotate(): void {
    closeSync(this.fd)
    const oldest = this.rotationCount - 1
    if (oldest >= 1) {
      rmSync(`${this.path}.${oldest}`, { force: true })
      for (let n = oldest - 1; n >= 1; n--) renameIfPresent(`${this.path}.${n}`, `${this.path}.${n + 1}`)
      renameSync(this.path, `${this.path}.1`)
    } else {
      rmSync(this.path, { force: true })
    }
    this.fd = openForAppend(this.path)
    this.size = 0
  }

  close(): void {
    closeSync(this.fd)
  }
}

function renameIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}
