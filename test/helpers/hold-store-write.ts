import type { UserRepository } from '../../core/auth/user-repository.ts'

type WriteMethod = 'update' | 'delete' | 'deleteMany'

/**
 * Holds the next write of one of `methods` on `id` at the store's door: `reached` resolves when a
 * request has passed its checks and is about to write; the write goes on when `release()` is
 * called. The real store does the write; this only fixes the interleaving, so no test depends on
 * timing. deleteMany counts as a write on each of its ids.
 */
export function holdNextWrite(users: UserRepository, methods: WriteMethod | WriteMethod[], id: string) {
  let release!: () => void
  let reached!: () => void
  const released = new Promise<void>((resolve) => { release = resolve })
  const reachedPromise = new Promise<void>((resolve) => { reached = resolve })
  let armed = true
  const touches = (method: WriteMethod, first: unknown) =>
    method === 'deleteMany' ? (first as Array<{ id: string }>).some((target) => target.id === id) : first === id
  for (const method of [methods].flat()) {
    const original = users[method].bind(users) as (...args: unknown[]) => Promise<unknown>
    ;(users as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      if (armed && touches(method, args[0])) {
        armed = false
        reached()
        await released
      }
      return original(...args)
    }
  }
  return { reached: reachedPromise, release }
}
