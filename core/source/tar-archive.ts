// A ustar archive in memory: enough of POSIX tar for regular files, read by GNU tar, bsdtar and
// every unpacker people have. Written here rather than installed: ~50 lines against a dependency
// in the deployed process for one route.

const BLOCK = 512

export interface TarEntry {
  /** Relative path with forward slashes. */
  name: string
  data: Buffer
  mtime: Date
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0'
}

/** Splits a path longer than the 100-byte name field into ustar's prefix (155) and name. */
function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name }
  for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i)
    const base = name.slice(i + 1)
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base }
  }
  throw new Error(`path too long for a ustar archive: ${name}`)
}

function header(entry: TarEntry): Buffer {
  const block = Buffer.alloc(BLOCK)
  const { prefix, base } = splitName(entry.name)
  block.write(base, 0, 100, 'utf8')
  block.write(octal(0o644, 8), 100, 'ascii')
  block.write(octal(0, 8), 108, 'ascii')
  block.write(octal(0, 8), 116, 'ascii')
  block.write(octal(entry.data.length, 12), 124, 'ascii')
  block.write(octal(Math.floor(entry.mtime.getTime() / 1000), 12), 136, 'ascii')
  block.write('        ', 148, 'ascii') // the checksum is computed with its own field as spaces
  block.write('0', 156, 'ascii')
  block.write('ustar\0', 257, 'ascii')
  block.write('00', 263, 'ascii')
  block.write(prefix, 345, 155, 'utf8')
  let sum = 0
  for (const byte of block) sum += byte
  block.write(octal(sum, 7) + ' ', 148, 'ascii')
  return block
}

export function tarArchive(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = []
  for (const entry of entries) {
    parts.push(header(entry), entry.data)
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK
    if (pad) parts.push(Buffer.alloc(pad))
  }
  parts.push(Buffer.alloc(BLOCK * 2))
  return Buffer.concat(parts)
}
