import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** pdfsig's "Signature Validation:" line per signature: a benchmark only counts what still verifies. */
export function pdfsigVerdicts(bytes: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sig-'))
  try {
    writeFileSync(join(dir, 'doc.pdf'), bytes)
    const out = execFileSync('pdfsig', [join(dir, 'doc.pdf')], { encoding: 'utf8' })
    return [...out.matchAll(/Signature Validation: (.*)/g)].map((m) => m[1]!)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
