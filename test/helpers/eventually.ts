// Waiting for what another connection or process does in its own time (a notification arriving,
// a connection coming back): a poll with a bound, never a fixed sleep.
import { setTimeout as delay } from 'node:timers/promises'

/** Asks `done` every 10 ms until it holds or `withinMs` has passed; whether it held. */
export async function eventually(done: () => boolean | Promise<boolean>, withinMs = 10_000): Promise<boolean> {
  for (const started = Date.now(); ; await delay(10)) {
    if (await done()) return true
    if (Date.now() - started >= withinMs) return false
  }
}

/** eventually(), failing the test with `what` when it never held within 10 s. */
export async function until(t: { fail(message: string): void }, what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  if (!await eventually(done)) t.fail(`timed out waiting until ${what}`)
}
