// docs/hosting.md shows code that runs: every code block is marked with the file it
// comes from and appears in that file as written (indentation aside). The host guide's blocks are
// whole files, compiled and booted by test/docs/host-guide-files-compile-and-boot.test.ts.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const MARKER = /^<!-- from (\S+) -->$/

interface Block { source: string | null; code: string; line: number }

/** Fenced blocks, each with the `<!-- from FILE -->` line right above it (null when absent). */
function codeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('```')) continue
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'))
    const marker = MARKER.exec(lines[i - 1] ?? '')
    blocks.push({ source: marker?.[1] ?? null, code: lines.slice(i + 1, end).join('\n'), line: i + 1 })
    i = end
  }
  return blocks
}

/** True when `code` is in `text` verbatim, possibly indented as a whole (a block shown dedented). */
function appearsIn(text: string, code: string): boolean {
  for (let indent = 0; indent <= 8; indent += 2) {
    const shifted = code.split('\n').map((l) => (l ? ' '.repeat(indent) + l : l)).join('\n')
    if (text.includes(shifted)) return true
  }
  return false
}

interface Asserts { ok(value: unknown, message: string): unknown; match(value: unknown, pattern: RegExp, message: string): unknown }

async function checkBlocks(t: Asserts, blocks: Block[], allowed: RegExp) {
  for (const block of blocks) {
    t.ok(block.source, `the block at line ${block.line} names its file`)
    if (!block.source) continue
    t.match(block.source, allowed, `line ${block.line}: ${block.source} is a host's file`)
    const text = await readFile(path.join(ROOT, block.source), 'utf8')
    t.ok(appearsIn(text, block.code), `line ${block.line}: the block appears in ${block.source} as written`)
  }
}

t.test('the appearance check itself', async (t) => {
  t.ok(appearsIn('function f() {\n  return 1\n}\n', 'return 1'))
  t.notOk(appearsIn('function f() {\n  return 1\n}\n', 'return 2'))
  t.same(codeBlocks('<!-- from a.ts -->\n```ts\nx\n```\n```\ny\n```').map((b) => b.source), ['a.ts', null])
})

t.test('docs/hosting.md: every code block is taken from host-app/ or examples/', async (t) => {
  const blocks = codeBlocks(await readFile(path.join(ROOT, 'docs/hosting.md'), 'utf8'))
  t.ok(blocks.length >= 4, `${blocks.length} code blocks`)
  await checkBlocks(t, blocks, /^(host-app|examples)\//)
})
