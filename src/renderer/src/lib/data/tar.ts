/**
 * A tar archive (POSIX ustar) of text files, for "every zone file in one archive": each file is
 * a 512-byte header and its bytes padded to 512, and two empty blocks end the archive. Plain
 * code, so a test can read an archive back.
 */
const BLOCK = 512

function header(path: string, size: number, mtime: number): Uint8Array<ArrayBuffer> {
  const h = new Uint8Array(BLOCK)
  const enc = new TextEncoder()
  const put = (text: string, offset: number, length: number) => h.set(enc.encode(text).slice(0, length), offset)
  const octal = (n: number, length: number) => n.toString(8).padStart(length - 1, '0') + '\0'
  // ustar keeps up to 100 bytes of name and 155 of prefix.
  const bytes = enc.encode(path)
  let name = path
  let prefix = ''
  if (bytes.length > 100) {
    const cut = path.lastIndexOf('/', 155)
    prefix = path.slice(0, cut)
    name = path.slice(cut + 1)
  }
  put(name, 0, 100)
  put(octal(0o644, 8), 100, 8)
  put(octal(0, 8), 108, 8)
  put(octal(0, 8), 116, 8)
  put(octal(size, 12), 124, 12)
  put(octal(Math.floor(mtime / 1000), 12), 136, 12)
  put('        ', 148, 8) // checksum counted as spaces
  put('0', 156, 1)
  put('ustar\0', 257, 6)
  put('00', 263, 2)
  put(prefix, 345, 155)
  const sum = h.reduce((a, b) => a + b, 0)
  put(octal(sum, 7) + ' ', 148, 8)
  return h
}

export function tarArchive(
  files: readonly { path: string; text: string }[],
  mtime = Date.now(),
): Uint8Array<ArrayBuffer> {
  const enc = new TextEncoder()
  const parts: Uint8Array<ArrayBuffer>[] = []
  for (const f of files) {
    const body = enc.encode(f.text)
    parts.push(header(f.path, body.length, mtime), body, new Uint8Array((BLOCK - (body.length % BLOCK)) % BLOCK))
  }
  parts.push(new Uint8Array(BLOCK * 2))
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
