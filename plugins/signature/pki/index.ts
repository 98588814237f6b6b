// The application PKI's primitives, for the rest of the plugin: the TSA function the signing code
// calls in-process, and where the CA's answers are published. The CA's answers over its table
// (services.pki) are a service: application-pki.ts.
export { respondToTimestampQuery, TSA_POLICY_OID, PKI_STATUS } from './respond-to-timestamp-query.ts'
export type { TimestampAuthorityKeys } from './respond-to-timestamp-query.ts'
export { openTimestampAuthority, type SerializedTimestampAuthority } from './app-timestamp-authority.ts'
export { PKI_PATH, pkiUrls, type PkiUrls } from './pki-urls.ts'
