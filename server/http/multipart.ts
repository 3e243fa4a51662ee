// multipart/form-data bodies as EMQX's upload endpoints take them (users import, backup upload).

/** The part named `name` of a multipart/form-data body: its file name and bytes. */
export function multipartFile(body: Buffer, contentType: string, name: string): { filename: string; data: Buffer } | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  const marker = boundary?.[1] ?? boundary?.[2]
  if (!marker) return undefined
  const delimiter = Buffer.from(`--${marker}`)
  let start = body.indexOf(delimiter)
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length)
    if (next < 0) break
    // A part is: CRLF, headers, CRLF CRLF, content, CRLF, then the next delimiter.
    const part = body.subarray(start + delimiter.length + 2, next - 2)
    const headerEnd = part.indexOf('\r\n\r\n')
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString('utf8')
      const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? ''
      const partName = /\bname="([^"]*)"/i.exec(disposition)?.[1]
      const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1]
      if (partName === name && filename !== undefined) return { filename, data: part.subarray(headerEnd + 4) }
    }
    start = next
  }
  return undefined
}
