// The Linux icon sizes (build/icons/<N>x<N>.png, 16 to 512 px) from build/icon.png, with Node
// alone (zlib): electron-builder takes a folder of sizes as they are, while a single PNG becomes
// one icon of its own size (1024 px), which no icon theme lists. Run by scripts/make-icons.sh;
// the results are committed. Reads 8- or 16-bit RGBA PNGs without interlacing (what ImageMagick
// writes for build/icon.png); each size is an area average in premultiplied alpha.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync, inflateSync } from 'node:zlib'

const LINUX_ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512]

/** RGBA, each channel 0..1, row after row. */
function decodePng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  let pos = 8
  let header
  const data = []
  while (pos < buf.length) {
    const length = buf.readUInt32BE(pos)
    const type = buf.toString('latin1', pos + 4, pos + 8)
    const body = buf.subarray(pos + 8, pos + 8 + length)
    if (type === 'IHDR')
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8],
        colour: body[9],
        interlace: body[12],
      }
    if (type === 'IDAT') data.push(body)
    pos += 12 + length
  }
  if (!header || header.colour !== 6 || (header.depth !== 8 && header.depth !== 16) || header.interlace !== 0)
    throw new Error('only 8- or 16-bit RGBA PNGs without interlacing are read')
  const { width, height, depth } = header
  const bpp = depth / 2 // bytes per pixel: 4 channels of depth/8 bytes
  const stride = width * bpp
  const raw = inflateSync(Buffer.concat(data))
  const rows = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    const out = rows.subarray(y * stride, (y + 1) * stride)
    const up = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride)
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? out[i - bpp] : 0
      const b = up[i]
      const c = i >= bpp ? up[i - bpp] : 0
      let p
      if (filter === 0) p = 0
      else if (filter === 1) p = a
      else if (filter === 2) p = b
      else if (filter === 3) p = (a + b) >> 1
      else {
        const e = a + b - c
        const pa = Math.abs(e - a)
        const pb = Math.abs(e - b)
        const pc = Math.abs(e - c)
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      }
      out[i] = (line[i] + p) & 0xff
    }
  }
  const pixels = new Float64Array(width * height * 4)
  for (let i = 0; i < width * height * 4; i++)
    pixels[i] = depth === 16 ? rows.readUInt16BE(i * 2) / 65535 : rows[i] / 255
  return { width, height, pixels }
}

/** An area average to `size`×`size`, colour weighted by alpha (no dark fringes at the edges). */
function resize({ width, height, pixels }, size) {
  const out = new Float64Array(size * size * 4)
  const sx = width / size
  const sy = height / size
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0,
        area = 0
      for (let yy = Math.floor(y * sy); yy < Math.ceil((y + 1) * sy); yy++) {
        const wy = Math.min(yy + 1, (y + 1) * sy) - Math.max(yy, y * sy)
        for (let xx = Math.floor(x * sx); xx < Math.ceil((x + 1) * sx); xx++) {
          const w = wy * (Math.min(xx + 1, (x + 1) * sx) - Math.max(xx, x * sx))
          const i = (yy * width + xx) * 4
          const alpha = pixels[i + 3] * w
          r += pixels[i] * alpha
          g += pixels[i + 1] * alpha
          b += pixels[i + 2] * alpha
          a += alpha
          area += w
        }
      }
      const o = (y * size + x) * 4
      out.set(a > 0 ? [r / a, g / a, b / a, a / area] : [0, 0, 0, 0], o)
    }
  }
  return out
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function chunk(type, body) {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(body.length, 0)
  head.write(type, 4, 'latin1')
  let crc = 0xffffffff
  for (const byte of Buffer.concat([head.subarray(4), body])) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8)
  const tail = Buffer.alloc(4)
  tail.writeUInt32BE((crc ^ 0xffffffff) >>> 0, 0)
  return Buffer.concat([head, body, tail])
}

/** An 8-bit RGBA PNG. */
function encodePng(size, pixels) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 6, 0, 0, 0], 8)
  const raw = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0
    for (let i = 0; i < size * 4; i++)
      raw[y * (size * 4 + 1) + 1 + i] = Math.round(Math.min(1, Math.max(0, pixels[y * size * 4 + i])) * 255)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function writeLinuxIcons(source = 'build/icon.png', dir = 'build/icons') {
  const image = decodePng(readFileSync(source))
  mkdirSync(dir, { recursive: true })
  for (const n of LINUX_ICON_SIZES) writeFileSync(join(dir, `${n}x${n}.png`), encodePng(n, resize(image, n)))
}

// node scripts/linux-icons.mjs [source] [folder]
writeLinuxIcons(process.argv[2], process.argv[3])
