import type { PublicUser } from '../../../core/auth/user-repository.ts'
import type { Policy } from '../../../core/access/policy.ts'
import { ERR_NOT_FOUND } from '../../../core/http/errors.ts'
import { UUID } from '../../../core/http/uuid.ts'
import type { DigitalSignatureTable } from '../library/library-tables.ts'
import type { SignatureRepository } from '../library/signature-repository.ts'
import { READ_ANY_SIGNATURE } from '../permissions.ts'

export type VisibleSignedDocument = DigitalSignatureTable & { document_key: string }

/**
 * The signed document of a signature (a record's, an upload's or one signer's session revision),
 * for its signer and `signatures:read-any`. Everyone else, a library signature, a malformed or
 * unknown uuid: the same 404, so nobody learns that someone else's document exists. The download
 * and the signer page's signed page images both ask here, so they cannot disagree.
 */
/** Whose signed documents a user may open: their own, or anyone's with `signatures:read-any`. */
export function mayOpenDocumentSignedBy(policy: Policy, user: PublicUser, signerId: string): boolean {
  return signerId === user.id || policy.can(user.role, READ_ANY_SIGNATURE)
}

export async function findVisibleSignedDocument(signatures: SignatureRepository, policy: Policy, user: PublicUser, uuid: string): Promise<VisibleSignedDocument> {
  const row = UUID.test(uuid) ? await signatures.find(uuid) : undefined
  const visible = row && row.source_uuid && row.status === 'signed' && row.document_key
    && mayOpenDocumentSignedBy(policy, user, row.user_id)
  if (!visible) throw ERR_NOT_FOUND('Signed document not found')
  return row as VisibleSignedDocument
}
