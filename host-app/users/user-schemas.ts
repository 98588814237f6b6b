import { z } from 'zod'
import { USER_SORT_FIELDS, sortOrders, type UserListQuery } from '../../core/index.ts'

export const USER_ID = /^[A-Za-z0-9_-]{1,64}$/

// A name reaches mail headers and bodies, the certificate of completion and log lines: one line,
// no control characters (a CR/LF there could add a header or forge a log line).
const name = z.string().trim().min(1, 'required').max(120, 'at most 120 characters')
  .refine((value) => !/[\p{Cc}\u2028\u2029]/u.test(value), 'one line, without line breaks or control characters')
const email = z.string().trim().toLowerCase().max(254).pipe(z.email('not an e-mail address'))
const password = z.string().min(8, 'at least 8 characters').max(1024)

/**
 * Each writable field's rules, written once: /api/users builds its create and patch schemas from
 * them, the People form declares its fields with them.
 */
export function userWriteSchemas(roles: string[]) {
  const role = z.enum(roles as [string, ...string[]], { message: `one of ${roles.join(', ')}` })
  const fields = { name, email, role, password }
  const create = z.object(fields).strict()
  const patch = z
    .object(fields)
    .partial()
    .strict()
    .refine((value) => Object.keys(value).length > 0, 'send at least one of name, email, role, password')
  return { fields, create, patch }
}

const orders = sortOrders(USER_SORT_FIELDS)
const sortValues = [...orders.keys()] as [string, ...string[]]

export const userListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    perPage: z.coerce.number().int().min(1).max(100).default(10),
    sort: z.enum(sortValues).optional(),
    search: z.string().max(200).optional(),
  })
  .strict()
  .transform((q): UserListQuery => ({
    page: q.page,
    perPage: q.perPage,
    search: q.search?.trim() || undefined,
    sort: q.sort === undefined ? undefined : orders.get(q.sort),
  }))
