// Every signature's digest comes from one pass over the file (covered-digests.ts): a hash state
// kept at each gap start, continued over the bytes after that gap. Each answer must equal hashing
// the range's two parts from scratch, for nested ranges as incremental updates make them, for two
// ranges sharing a gap start but not what follows, ranges sharing what follows but not the gap
// start, ranges asked for but not announced, and gap starts past the end (read as subarray reads).
import { createHash, randomBytes } from 'node:crypto'
import t from 'tap'
import { CoveredDigests } from '../../../../plugins/signature/verify/covered-digests.ts'
import { digest } from '../../../../plugins/signature/verify/algorithms.ts'

const bytes = randomBytes(200_000)
const direct = (algorithm: string, [, a, b, c]: number[]) => digest(algorithm, [bytes.subarray(0, a), bytes.subarray(b!, b! + c!)])

// Three incremental signatures: each covers the earlier ones' gaps.
const nested = [[0, 1000, 3000, 7000], [0, 40_000, 45_000, 30_000], [0, 120_000, 126_000, 74_000]]
const oddOnes = [
  [0, 1000, 5000, 100], // the same gap start as the first, other bytes after
  [0, 2000, 3000, 7000], // the same bytes after as the first, another gap start
  [0, 250_000, 250_000, 10], // a gap start past the end
  [0, 0, 10, 10],
]

t.test('each range\'s digest equals hashing its parts, per algorithm', async (t) => {
  const digests = new CoveredDigests(bytes, [...nested, ...oddOnes])
  for (const algorithm of ['sha256', 'sha1', 'sha512', 'sha384']) {
    for (const range of [...nested, ...oddOnes]) t.ok(digests.of(algorithm, range).equals(direct(algorithm, range)), `${algorithm} ${range.join(' ')}`)
    // Asked again: a kept state is continued on a copy, never consumed.
    for (const range of nested) t.ok(digests.of(algorithm, range).equals(direct(algorithm, range)), `${algorithm} ${range.join(' ')} again`)
  }
})

t.test('a range not announced is hashed on its own', async (t) => {
  const digests = new CoveredDigests(bytes, nested)
  for (const range of oddOnes) t.ok(digests.of('sha256', range).equals(direct('sha256', range)), range.join(' '))
})

t.test('the document\'s SHA-256 comes from the same pass', async (t) => {
  const digests = new CoveredDigests(bytes, nested)
  digests.of('sha256', nested[1]!)
  t.equal(digests.documentSha256().toString('hex'), createHash('sha256').update(bytes).digest('hex'))
  t.equal(new CoveredDigests(bytes, []).documentSha256().toString('hex'), createHash('sha256').update(bytes).digest('hex'))
})

t.test('an algorithm node:crypto does not know throws, as hashing directly does', async (t) => {
  t.throws(() => new CoveredDigests(bytes, nested).of('no-such-hash', nested[0]!))
})
