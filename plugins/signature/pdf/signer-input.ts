// What a caller hands over to sign with. Both shapes survive structured cloning (a KeyObject can
// be posted to a worker thread), so every signing function can run in a worker pool.
import { readP12, type SigningIdentity } from '../certificates/read-p12.ts'

export interface P12Signer {
  p12: Uint8Array
  password: string
}

export type SignerInput = P12Signer | SigningIdentity

export function resolveSigner(signer: SignerInput, at: Date): SigningIdentity {
  // A PKCS#12 costs tens of ms to open (forge's PBKDF2 and AES in JavaScript); callers that sign
  // often with one certificate can open it once with readP12 and pass the identity instead.
  return 'p12' in signer ? readP12(signer.p12, signer.password, { at }) : signer
}
