// A backup archive in memory: files by their path, packed into a gzipped tar as EMQX's erl_tar
// writes one (regular files only, no folder entries) and read back from one with node-tar's parser.
import { gunzipSync, gzipSync } from 'node:zlib'
import { Header, Parser, type ReadEntry } from 'tar'

export type ArchiveFiles = Map<string, Buffer>

const BLOCK = 512

export function packArchive(files: ArchiveFiles, mtime: Date): Buffer {
  const blocks: Buffer[] = []
  for (const [path, data] of files) {
    const header = Buffer.alloc(BLOCK)
    // Paths here are short (`<name>/mnesia/<table>`): no PAX header is needed.
    if (new Header({ path, mode: 0o644, uid: 0, gid: 0, size: data.length, mtime, type: 'File' }).encode(header, 0)) {
      throw new Error(`path too long for a tar header: ${path}`)
    }
    blocks.push(header, data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK))
  }
  blocks.push(Buffer.alloc(2 * BLOCK))
  return gzipSync(Buffer.concat(blocks))
}

/**
 * The entries of a gzipped tar: every path (folders too, with an empty content) and each file's
 * content. Throws with the reason when it is not one.
 */
export async function readArchive(archive: Buffer): Promise<ArchiveFiles> {
  const tar = gunzipSync(archive)
  return new Promise((resolve, reject) => {
    const files: ArchiveFiles = new Map()
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        const chunks: Buffer[] = []
        entry.on('data', (chunk: Buffer) => chunks.push(chunk))
        entry.on('end', () => files.set(entry.path, Buffer.concat(chunks)))
      },
    })
    parser.on('error', reject)
    parser.on('close', () => resolve(files))
    parser.end(tar)
  })
}
