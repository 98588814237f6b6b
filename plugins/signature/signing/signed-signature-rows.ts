import { randomUUID } from 'node:crypto'
import type { DigitalSignatureTable, SignaturePositionTable } from '../library/library-tables.ts'
import type { SigningMaterial } from '../library/signature-library.ts'
import type { SignedSubject, StampPlacement } from './signature-manager.ts'

export interface SignedSignatureRows {
  signature: DigitalSignatureTable
  positions: SignaturePositionTable[]
}

/**
 * The rows a signature leaves: one digital_signatures child of the library signature it was made
 * with, and one signature_positions row per box. Single signing and a session's signer both write
 * these, so "my signed documents" and the download's access rule read them alike either way.
 */
export interface SignedSignatureInput {
  /** The child row's uuid (the signature the document is downloaded by). */
  uuid: string
  material: SigningMaterial
  subject: SignedSubject
  placements: StampPlacement[]
  documentKey: string
  sha256: string
  signedAt: string
  /** Given when the slots were signed before: this row is their next version. */
  resignReason?: string | undefined
}

export function signedSignatureRows(input: SignedSignatureInput): SignedSignatureRows {
  const { uuid, material, subject, signedAt } = input
  return {
    signature: {
      uuid,
      user_id: material.userId,
      source_uuid: material.uuid,
      signable_type: subject.type,
      signable_id: subject.id,
      status: 'signed',
      label: material.label,
      is_primary: 0,
      // The image and certificate stay on the source row; the signed PDF carries both.
      image_mime: null,
      image_base64: null,
      certificate_source: null,
      certificate_p12: null,
      certificate_password: null,
      certificate_subject: material.subject,
      certificate_not_after: null,
      document_key: input.documentKey,
      document_sha256: input.sha256,
      signed_at: signedAt,
      resign_reason: input.resignReason ?? null,
      created_at: signedAt,
      updated_at: signedAt,
    },
    positions: input.placements.map((p) => ({
      id: randomUUID(),
      signature_uuid: uuid,
      template_key: subject.templateKey,
      slot_key: p.slot,
      page: p.page,
      x: p.x,
      y: p.y,
      width: p.width,
      height: p.height,
      created_at: signedAt,
    })),
  }
}
