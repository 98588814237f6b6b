// Test helper: the whole files a documentation page holds, each fenced block with a
// `<!-- file: NAME -->` line right above it, so a test can write them out and compile or run them.

const MARKER = /^<!-- file: (\S+) -->$/

/** The page's whole files by name. */
export function markdownFiles(markdown: string): Map<string, string> {
  const lines = markdown.split('\n')
  const files = new Map<string, string>()
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('```')) continue
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'))
    const marker = MARKER.exec(lines[i - 1] ?? '')
    if (marker) files.set(marker[1]!, `${lines.slice(i + 1, end).join('\n')}\n`)
    i = end
  }
  return files
}

/** Fenced blocks in `language` that are not such a file (a snippet a test cannot compile). */
export function unmarkedBlocks(markdown: string, language: string): number[] {
  const lines = markdown.split('\n')
  const unmarked: number[] = []
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('```')) continue
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'))
    if (lines[i] === '```' + language && !MARKER.test(lines[i - 1] ?? '')) unmarked.push(i + 1)
    i = end
  }
  return unmarked
}
