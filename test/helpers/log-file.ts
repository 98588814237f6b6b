import { readFile } from 'node:fs/promises'

export interface LogLine { msg: string; level: number; reqId?: string; method?: string; route?: string | null; status?: number; ms?: number; user?: string | null; err?: { type?: string; message?: string; stack?: string } }

/** The deployed logger writes asynchronously: wait (bounded) until `until` holds for the file's lines. */
export async function logLinesUntil(file: string, until: (lines: LogLine[]) => boolean): Promise<LogLine[]> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '')
    const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogLine)
    if (until(lines) || Date.now() > deadline) return lines
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
