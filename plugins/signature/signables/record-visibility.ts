import type { Policy } from '../../../core/access/policy.ts'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import { READ_ANY_SIGNATURE } from '../permissions.ts'
import { isSignatory } from './signatories.ts'

/**
 * Whether a user may see a record at all: a role with `signatures:read-any`, or a signatory of one
 * of its slots. The one rule behind GET /api/signables/:key, every signer route and the creation of
 * a signing session; whoever may not see a record is answered as if it did not exist.
 */
export function maySeeRecord(policy: Policy, template: RegisteredTemplate, record: unknown, user: Pick<PublicUser, 'id' | 'role'>): boolean {
  return policy.can(user.role, READ_ANY_SIGNATURE) || isSignatory(template, record, user.id)
}
