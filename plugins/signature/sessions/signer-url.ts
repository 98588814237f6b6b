import { DOCUMENT_TEMPLATE_KEY } from './document-template-key.ts'

/**
 * Builds the signer page's address for one request of a session. The signer page is addressed by
 * the signature the user signs with (plugins/signature/signer: `.../sign/:signatureUuid`), so a
 * link exists only once the signer has an active signature in their library.
 */
export type SignerUrlBuilder = (input: { templateKey: string; signatureUuid: string; requestId: string }) => string

/**
 * The app panel's signer path, used until the inbox plugin resolves the named route
 * `signature.pdf-templates.signer` (`documents.sign` for an uploaded document, which has no template).
 */
export const defaultSignerUrl: SignerUrlBuilder = ({ templateKey, signatureUuid, requestId }) =>
  templateKey === DOCUMENT_TEMPLATE_KEY
    ? `/app/documents/requests/${encodeURIComponent(requestId)}/sign`
    : `/app/signature-templates/${encodeURIComponent(templateKey)}/sign/${encodeURIComponent(signatureUuid)}?request=${encodeURIComponent(requestId)}`
