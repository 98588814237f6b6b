import forge from 'node-forge'
import { generateRsaKeyPair } from './forge-keys.ts'
import { randomSerialNumber } from './random-serial.ts'

export function addYears(date: Date, years: number): Date {
  const result = new Date(date.getTime())
  result.setUTCFullYear(result.getUTCFullYear() + years)
  return result
}

/**
 * What every certificate here starts with: a fresh RSA-2048 key, a random serial, and a validity
 * from one minute ago (so a verifier whose clock is slightly behind does not call it "not yet
 * valid") for `validityYears`. Subject, issuer, extensions and signing stay with the caller.
 */
export function newKeyAndCertificate(now: Date, validityYears: number) {
  const keys = generateRsaKeyPair(2048)
  const cert = forge.pki.createCertificate()
  cert.publicKey = keys.forgePublicKey
  cert.serialNumber = randomSerialNumber()
  cert.validity.notBefore = new Date(now.getTime() - 60_000)
  cert.validity.notAfter = addYears(now, validityYears)
  return { keys, cert }
}
