/**
 * Text cut into pieces of at most a number of UTF-8 bytes, between characters, never inside one:
 * a DNS character-string (255 bytes, RFC 1035 3.3) and a folded iCalendar line (75 octets, the
 * continuations 74 after their leading space, RFC 5545 3.1) are both cut this way.
 */
const utf8 = new TextEncoder()

/** The pieces of `text`, the i-th at most `limit(i)` bytes; the empty text is one empty piece. */
export function piecesByBytes(text: string, limit: (index: number) => number): string[] {
  const out: string[] = []
  let piece = ''
  let bytes = 0
  for (const ch of text) {
    const n = utf8.encode(ch).length
    if (bytes + n > limit(out.length) && piece !== '') {
      out.push(piece)
      piece = ''
      bytes = 0
    }
    piece += ch
    bytes += n
  }
  if (piece !== '' || out.length === 0) out.push(piece)
  return out
}
