// Where each revision of a file ends: after every "%%EOF" that closes a cross-reference section
// (a startxref shortly before it), with its end-of-line. A signature's byte range ends at one of
// these; each incremental update adds one.
export function revisionEnds(bytes: Uint8Array): number[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  const ends: number[] = []
  for (let at = text.indexOf('%%EOF'); at >= 0; at = text.indexOf('%%EOF', at + 5)) {
    // "%%EOF" inside a binary stream is not a revision's end.
    if (text.lastIndexOf('startxref', at) < at - 64 || text.lastIndexOf('startxref', at) < 0) continue
    let end = at + 5
    if (text[end] === '\r') end++
    if (text[end] === '\n') end++
    ends.push(end)
  }
  if (ends.length === 0 || ends.at(-1)! < bytes.length) ends.push(bytes.length)
  return ends
}

/** 1-based revision whose end a signature's covered end reaches. */
export function revisionOf(ends: number[], coveredEnd: number): number {
  const index = ends.findIndex((end) => end >= coveredEnd)
  return (index < 0 ? ends.length - 1 : index) + 1
}
