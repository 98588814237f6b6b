// core/http/batched-log-destination.ts: lines are encoded into batches outside the heap and
// written a batch at a time. Whatever the sizes, every line arrives once, whole and in order:
// across many batches, with multi-byte text at a batch's edge, and a line longer than a batch.
import { openSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t, { type Test } from 'tap'
import { BATCH_BYTES, batchedLogDestination } from '../../../core/http/batched-log-destination.ts'

async function destinationInFile(t: Test) {
  const dir = await mkdtemp(path.join(tmpdir(), 'log-batches-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'batches.log')
  return { file, stream: batchedLogDestination(openSync(file, 'a')) }
}

/** Hands over what waits, then reads the file once it holds `bytes` (bounded: its writes are asynchronous). */
async function flushedFile(stream: ReturnType<typeof batchedLogDestination>, file: string, bytes: number): Promise<string> {
  stream.flush()
  const deadline = Date.now() + 10_000
  for (;;) {
    const text = await readFile(file, 'utf8')
    if (Buffer.byteLength(text) >= bytes || Date.now() > deadline) return text
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

t.test('lines spanning many batches, with multi-byte text, arrive whole and in order', async (t) => {
  const { file, stream } = await destinationInFile(t)
  const lines: string[] = []
  // 3-byte characters at every length, so batch edges fall inside multi-byte text.
  for (let i = 0; lines.join('').length < BATCH_BYTES * 4; i++) lines.push(`${JSON.stringify({ i, text: '名前'.repeat(i % 97), tail: 'é' })}\n`)
  for (const line of lines) stream.write(line)
  const all = lines.join('')
  t.equal(await flushedFile(stream, file, Buffer.byteLength(all)), all, `${lines.length} lines, byte for byte`)
})

t.test('a line longer than a batch is written whole, after the lines before it', async (t) => {
  const { file, stream } = await destinationInFile(t)
  const long = `${JSON.stringify({ stack: 'x'.repeat(BATCH_BYTES * 2) })}\n`
  stream.write('{"before":1}\n')
  stream.write(long)
  stream.write('{"after":1}\n')
  const all = `{"before":1}\n${long}{"after":1}\n`
  t.equal(await flushedFile(stream, file, all.length), all)
})

t.test('nothing is written until a batch fills or the stream is flushed', async (t) => {
  const { file, stream } = await destinationInFile(t)
  stream.write('{"waiting":1}\n')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(await readFile(file, 'utf8'), '', 'still in the batch')
  t.equal(await flushedFile(stream, file, 14), '{"waiting":1}\n')
})
