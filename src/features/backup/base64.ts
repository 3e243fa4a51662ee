// A file's bytes as base64, the form backup.upload takes them in (a command's arguments are text).
export async function base64OfFile(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  // String.fromCharCode takes its arguments on the stack: a slice at a time.
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  return btoa(binary)
}
