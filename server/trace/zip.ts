// A zip archive in memory (deflated entries, as Erlang's zip:zip/3 writes them): what
// `/trace/{name}/download` serves. Only what a few log files need: no zip64, no directories.
import { crc32, deflateRawSync } from 'node:zlib'

export interface ZipEntry {
  name: string
  data: Buffer
  /** When the file was last changed, epoch ms. */
  mtime: number
}

/** MS-DOS time and date of a moment in local time, as zip headers hold them. */
function dosTime(ms: number): { time: number; date: number } {
  const d = new Date(ms)
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: (Math.max(d.getFullYear() - 1980, 0) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  }
}

/** What the local and the central header of an entry both hold, from "version needed" to the name's length: 24 bytes. */
function writeCommon(header: Buffer, at: number, fields: { time: number; date: number; crc: number; packed: number; size: number; nameLength: number }): void {
  header.writeUInt16LE(20, at) // version needed: 2.0 (deflate)
  header.writeUInt16LE(0x0800, at + 2) // UTF-8 names
  header.writeUInt16LE(8, at + 4) // deflate
  header.writeUInt16LE(fields.time, at + 6)
  header.writeUInt16LE(fields.date, at + 8)
  header.writeUInt32LE(fields.crc, at + 10)
  header.writeUInt32LE(fields.packed, at + 14)
  header.writeUInt32LE(fields.size, at + 18)
  header.writeUInt16LE(fields.nameLength, at + 22)
}

export function zipArchive(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const packed = deflateRawSync(entry.data)
    const fields = { ...dosTime(entry.mtime), crc: crc32(entry.data), packed: packed.length, size: entry.data.length, nameLength: name.length }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    writeCommon(local, 4, fields)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4) // made by
    writeCommon(central, 6, fields)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, packed)
    centrals.push(central, name)
    offset += local.length + name.length + packed.length
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(centralSize, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, ...centrals, end])
}
