import t from 'tap'
import { requireUser } from '../../../core/auth/require-user.ts'
import { isAppError } from '../../../core/http/errors.ts'

t.test('requireUser answers the user it was given', async (t) => {
  const user = { id: 'u-1', role: 'staff' }
  t.equal(requireUser(user), user)
})

t.test('requireUser refuses null and undefined with the documented 401', async (t) => {
  for (const missing of [null, undefined]) {
    try {
      requireUser(missing)
      t.fail('must throw')
    } catch (error) {
      t.ok(isAppError(error))
      t.match(error, { code: 'ERR_UNAUTHENTICATED', statusCode: 401, message: 'Sign in first' })
    }
  }
})
