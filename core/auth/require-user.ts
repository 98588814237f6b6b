import { ERR_UNAUTHENTICATED } from '../http/errors.ts'

/**
 * "Signed in or 401", the one place it is written: routes pass `request.user`, services the user
 * they were given. Returning the user (not asserting) lets a handler read it without a `!`.
 */
export function requireUser<U>(user: U | null | undefined): U {
  if (!user) throw ERR_UNAUTHENTICATED()
  return user
}
