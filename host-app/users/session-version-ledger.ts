import type { Disk } from '../../core/index.ts'

const FILE = 'session-versions.json'

/**
 * The session versions of the in-memory users, kept on the storage disk. Users in memory come
 * back as seeded after a restart, but the cookie key is kept on disk: without this a cookie
 * revoked by sign-out, a role or password change or a delete would match version 0 again.
 * Only versions are kept, so the records still reset on restart as the specification says.
 */
export class SessionVersionLedger {
  #writing: Promise<unknown> = Promise.resolve()

  private constructor(private readonly disk: Disk, private readonly versions: Map<string, number>) {}

  static async open(disk: Disk): Promise<SessionVersionLedger> {
    if (!(await disk.exists(FILE))) return new SessionVersionLedger(disk, new Map())
    const text = (await disk.get(FILE)).toString('utf8')
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    const valid = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      && Object.values(parsed).every((v) => Number.isSafeInteger(v) && (v as number) >= 0)
    // Starting from zero would bring every revoked cookie back: refuse to boot instead.
    if (!valid) throw new Error(`The session version file ${disk.path(FILE)} is damaged; remove it only if the session key is replaced too`)
    return new SessionVersionLedger(disk, new Map(Object.entries(parsed as Record<string, number>)))
  }

  versionOf(id: string): number {
    return this.versions.get(id) ?? 0
  }

  /** Resolves once the version is on disk, so a revocation is answered only after it is durable. */
  record(id: string, version: number): Promise<void> {
    if (version <= this.versionOf(id)) return this.#writing.then(() => undefined)
    this.versions.set(id, version)
    // One write at a time, each of the whole (small) map as it is then: the last one on disk is the newest.
    const write = this.#writing.catch(() => {}).then(() => this.disk.put(FILE, JSON.stringify(Object.fromEntries(this.versions))))
    this.#writing = write
    return write.then(() => undefined)
  }
}
