import pino from 'pino'

/** Bytes of log lines held before they are handed to the file in one write. */
export const BATCH_BYTES = 64 * 1024
/** ...or this long after the first of them, whichever comes first. */
const FLUSH_MS = 1000
/** The most UTF-8 bytes one UTF-16 code unit of a line can take. */
const MAX_BYTES_PER_UNIT = 3

export type LogDestination = ReturnType<typeof pino.destination>

/**
 * pino's asynchronous destination (sonic-boom, sync: false), fed in batches: each line is encoded
 * at once into a buffer outside V8's heap, and the buffer is handed to sonic-boom (which writes it
 * through libuv's thread pool) once BATCH_BYTES are nearly full or once a second. Flushed on exit:
 * pino flushes this stream (flushSync, or flush then end), and those hand over what is waiting.
 *
 * Why so, measured at 2,000 req/s on /api/users (bench/tools/perf-at-rate.ts, CPU per request):
 * - sonic-boom's own batching (minLength) in string mode measured the UTF-8 length of the whole
 *   pending chunk on every line (5 % of the server's CPU); in buffer mode each line became a Buffer
 *   of its own (a typed array on the 8 KiB pool);
 * - lines kept as strings until a batch was written lived long enough to be promoted to the old
 *   generation when batches were large (64 KB of strings: +6 µs per request, the full collections
 *   they caused), and small batches meant a thread-pool hand-over every few milliseconds;
 * - encoded at once, a line's string dies young, a batch is one object, and there are a few writes
 *   a second.
 */
export function batchedLogDestination(fd: number): LogDestination {
  const stream = pino.destination({ dest: fd, sync: false, minLength: 0, contentMode: 'buffer' })
  // sonic-boom's own field, not in its types.
  const state = stream as unknown as { destroyed: boolean }
  const writeBytes = stream.write.bind(stream) as unknown as (data: Buffer) => boolean
  let batch = Buffer.allocUnsafeSlow(BATCH_BYTES)
  let used = 0
  const handOver = () => {
    if (used === 0 || state.destroyed) return
    // sonic-boom holds the bytes until its write is done: the next lines go to a new buffer.
    const full = batch.subarray(0, used)
    batch = Buffer.allocUnsafeSlow(BATCH_BYTES)
    used = 0
    writeBytes(full)
  }
  stream.write = (line: string) => {
    if (used + line.length * MAX_BYTES_PER_UNIT > BATCH_BYTES) {
      handOver()
      // A line longer than a batch (a long stack trace) goes out on its own.
      if (line.length * MAX_BYTES_PER_UNIT > BATCH_BYTES) return writeBytes(Buffer.from(line, 'utf8'))
    }
    used += batch.write(line, used, 'utf8')
    return true
  }
  const flush = stream.flush.bind(stream)
  stream.flush = (callback?: (error?: Error) => void) => {
    handOver()
    flush(callback)
  }
  const flushSync = stream.flushSync.bind(stream)
  stream.flushSync = () => {
    handOver()
    flushSync()
  }
  const end = stream.end.bind(stream)
  stream.end = () => {
    handOver()
    end()
  }
  const timer = setInterval(handOver, FLUSH_MS)
  // The timer never keeps a process alive, and stops with the stream.
  timer.unref()
  stream.once('close', () => clearInterval(timer))
  return stream
}
