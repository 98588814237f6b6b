import { AsyncLocalStorage } from 'node:async_hooks'
import fp from 'fastify-plugin'

// The audit trail records the address each action came from, but the finalize seam
// (SessionFinalizer) is a fixed contract that carries no request. The address travels with the
// request's async context instead, set once per request by this hook.
const storage = new AsyncLocalStorage<{ address: string }>()

export function currentRequestAddress(): string | null {
  return storage.getStore()?.address ?? null
}

export function runWithAddress<T>(address: string, fn: () => T): T {
  return storage.run({ address }, fn)
}

/** App-wide (hence fastify-plugin): every route, including the signer's finalize, gets the address. */
export const requestAddressPlugin = fp(async (app) => {
  app.addHook('onRequest', (request, _reply, done) => {
    storage.run({ address: request.ip }, done)
  })
}, { name: 'signing-sessions-request-address' })
