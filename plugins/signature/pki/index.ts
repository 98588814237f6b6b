// The application PKI, for the rest of the plugin: the TSA function the signing code calls
// in-process, the CA's answers (services.pki) and where they are published.
export { respondToTimestampQuery, TSA_POLICY_OID, PKI_STATUS } from './respond-to-timestamp-query.ts'
export type { TimestampAuthorityKeys } from './respond-to-timestamp-query.ts'
export { ApplicationPki } from './application-pki.ts'
export { openTimestampAuthority, type SerializedTimestampAuthority } from './app-timestamp-authority.ts'
export { PKI_PATH, pkiUrls, type PkiUrls } from './pki-urls.ts'
