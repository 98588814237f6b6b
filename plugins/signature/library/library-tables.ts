import type { Placement } from '../contracts/placement.ts'

export type SignatureStatus = 'active' | 'revoked' | 'signed'

export interface DigitalSignatureTable {
  uuid: string
  user_id: string
  source_uuid: string | null
  signable_type: string | null
  signable_id: string | null
  status: SignatureStatus
  label: string
  is_primary: number
  image_mime: string | null
  image_base64: string | null
  certificate_source: 'issued' | 'uploaded' | null
  certificate_p12: string | null
  certificate_password: string | null
  certificate_subject: string | null
  certificate_not_after: string | null
  document_key: string | null
  document_sha256: string | null
  signed_at: string | null
  /** Why a slot already signed was signed again (a later version); null otherwise. */
  resign_reason?: string | null
  created_at: string
  updated_at: string
}

export interface SignaturePositionTable extends Placement {
  id: string
  signature_uuid: string
  template_key: string | null
  slot_key: string | null
  created_at: string
}

export interface LibraryTables {
  digital_signatures: DigitalSignatureTable
  signature_positions: SignaturePositionTable
}
