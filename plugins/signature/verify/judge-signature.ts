// Turns the facts about one signature into its report entry: the PAdES level, the verdict and
// a sentence for a person. Times are judged against proof of existence: a valid timestamp proves
// the signature existed then; without one, only "now" is proven.
import { nameText } from './certificate-identity.ts'
import { outOfValidity } from './certificate-chain.ts'
import type { SignatureFacts } from './check-signature.ts'
import type { FoundSignature } from './pdf-signatures.ts'
import type { Change, SignatureReport, Verdict } from './verification-report.ts'
import { chainReport, conclude, failed, indeterminate, type Finding } from './etsi-validation.ts'
import type { SignatureFailure } from './check-signature.ts'

/** A failed integrity check in EN 319 102-1's words. */
const INTEGRITY_FINDING: Record<SignatureFailure, Finding> = {
  'format': failed('FORMAT_FAILURE'),
  'hash': failed('HASH_FAILURE'),
  'crypto': failed('SIG_CRYPTO_FAILURE'),
  'no-signer': indeterminate('NO_SIGNING_CERTIFICATE_FOUND'),
  'signing-certificate': indeterminate('NO_SIGNING_CERTIFICATE_FOUND'),
  'algorithm': indeterminate('CRYPTO_CONSTRAINTS_FAILURE'),
  'purpose': indeterminate('CHAIN_CONSTRAINTS_FAILURE'),
  'validity': indeterminate('OUT_OF_BOUNDS_NO_POE'),
}

export interface JudgeInput {
  signature: FoundSignature
  facts: SignatureFacts
  revision: number
  coversWholeDocument: boolean
  changes: Change[]
  unreadableAfter: number[]
  laterTimestamps: Array<{ revision: number; time: string }>
  dssRevisions: number[]
  now: Date
}

export function judgeSignature(input: JudgeInput): SignatureReport {
  const { signature, facts, changes } = input
  const isTimestamp = signature.type === 'DocTimeStamp' || signature.subFilter === 'ETSI.RFC3161'
  const problems = [...facts.problems]
  const warnings: string[] = []
  // The same judgements in EN 319 102-1's words, in the order they are made.
  const findings: Finding[] = []
  if (!facts.integrity) findings.push(INTEGRITY_FINDING[facts.failure ?? 'format'])
  const modificationsAfter = input.unreadableAfter.length > 0 || changes.some((c) => !c.allowed) ? 'forbidden' : changes.length > 0 ? 'allowed' : 'none'
  for (const change of changes.filter((c) => !c.allowed)) problems.push(`Revision ${change.revision}: ${change.why}`)
  for (const revision of input.unreadableAfter) problems.push(`Revision ${revision} cannot be read, so what it changed is unknown`)
  // The standard leaves PDF changes to the format: a change the signature forbids fails it.
  if (modificationsAfter === 'forbidden') findings.push(failed('FORMAT_FAILURE'))

  // Proof of existence: the signature's own timestamp, else the earliest later document timestamp.
  const ownTime = !isTimestamp && facts.timestamp?.valid ? new Date(facts.timestamp.time!) : undefined
  const laterTime = input.laterTimestamps.map((t) => new Date(t.time)).sort((a, b) => a.getTime() - b.getTime())[0]
  const proven = isTimestamp ? (facts.timestamp?.valid ? new Date(facts.timestamp.time!) : undefined) : ownTime ?? laterTime
  if (!isTimestamp && facts.timestamp && !facts.timestamp.valid) {
    problems.push(facts.timestamp.problem ?? 'The signature timestamp is not valid')
    const failure = facts.timestamp.failure
    findings.push(failure === 'hash' ? failed('HASH_FAILURE') : failure === 'crypto' ? failed('SIG_CRYPTO_FAILURE') : indeterminate('SIG_CONSTRAINTS_FAILURE'))
  }

  const trust: SignatureReport['trust'] = !facts.chain ? 'unknown' : facts.chain.trusted ? 'trusted' : 'untrusted'
  // Validity first: an expired signer certificate is what a person needs to hear before the rest.
  // Of an untrusted path only the signer's own certificate is judged here (the path's problem names the rest).
  if (facts.chain) {
    const at = proven ?? input.now
    const outside = outOfValidity(facts.chain.trusted ? facts.chain.chain : [facts.chain.chain[0]!], at)
    if (outside) {
      const what = `the certificate of ${nameText(outside.subject)} (valid ${iso(outside.validFrom)} to ${iso(outside.validTo)})`
      if (proven) {
        problems.push(`The timestamp proves the signature was made at ${proven.toISOString()}, outside the validity of ${what}`)
        findings.push(failed(proven < new Date(outside.validFrom) ? 'NOT_YET_VALID' : 'EXPIRED'))
      } else {
        warnings.push(`${capitalize(what)} is not valid now, and no timestamp proves the signature was made while it was`)
        findings.push(indeterminate('OUT_OF_BOUNDS_NO_POE'))
      }
    }
  }
  if (trust === 'untrusted') {
    // No problem named: the issuers found never reach an anchor; named: a path that breaks a rule.
    findings.push(indeterminate(facts.chain!.problem ? 'CHAIN_CONSTRAINTS_FAILURE' : 'NO_CERTIFICATE_CHAIN_FOUND'))
    warnings.push(facts.chain!.problem
      ? `The signer's certificate chain fails validation: ${lowerFirst(facts.chain!.problem)}`
      : "The signer's certificate does not lead to a trusted certificate authority")
  }
  if (trust === 'unknown' && facts.integrity) {
    warnings.push("The signer's certificate could not be found")
    findings.push(indeterminate('NO_SIGNING_CERTIFICATE_FOUND'))
  }
  if (facts.timestamp?.valid && !facts.timestamp.trusted) {
    findings.push(indeterminate(isTimestamp ? 'NO_CERTIFICATE_CHAIN_FOUND' : 'SIG_CONSTRAINTS_FAILURE'))
    warnings.push(`The timestamp authority's certificate is not trusted${facts.timestamp.problem ? `: ${lowerFirst(facts.timestamp.problem)}` : ''}`)
  }

  let revokedAt: Date | undefined
  if (facts.revocation?.status === 'revoked') {
    revokedAt = facts.revocation.revokedAt
    if (proven && revokedAt && revokedAt > proven) {
      // Revoked later than the timestamp proves the signature existed: the signature stands.
    } else if (proven || (revokedAt && signature.claimedTime && revokedAt <= signature.claimedTime)) {
      problems.push(`The signer's certificate was revoked at ${revokedAt?.toISOString() ?? 'an unknown time'}, before the signature was made`)
      findings.push(failed('REVOKED'))
    } else {
      warnings.push(`The signer's certificate was revoked at ${revokedAt?.toISOString() ?? 'an unknown time'}, and nothing proves the signature was made before`)
      findings.push(indeterminate('REVOKED_NO_POE'))
    }
  } else if (!facts.revocation && trust === 'trusted' && facts.chain!.chain.length > 1) {
    // Without an answer nothing says the certificate was not revoked: never "good" by default,
    // whether or not the certificate names a service to ask.
    warnings.push(facts.hasRevocationService
      ? "The signer's certificate could not be checked for revocation"
      : "The signer's certificate could not be checked for revocation: the document carries no answer and the certificate names no service to ask")
    findings.push(indeterminate('TRY_LATER'))
  }

  const level = padesLevel(input, isTimestamp, proven !== undefined)
  const verdict: Verdict = problems.length > 0 || !facts.integrity ? 'invalid' : warnings.length > 0 ? 'warning' : 'valid'
  const signer = facts.signer
  return {
    field: signature.field,
    kind: isTimestamp ? 'document-timestamp' : signature.isCertification ? 'certification' : 'approval',
    signer: signer ? { subject: nameText(signer.subject), issuer: nameText(signer.issuer), serial: signer.serialNumber, notBefore: iso(signer.validFrom), notAfter: iso(signer.validTo) } : null,
    integrity: facts.integrity ? 'valid' : 'invalid',
    revision: input.revision,
    coversWholeDocument: input.coversWholeDocument,
    modificationsAfter,
    changes,
    trust,
    revocation: facts.revocation?.status ?? 'unknown',
    revocationSource: facts.revocation ? facts.revocationSource : null,
    timestamp: facts.timestamp ? { time: facts.timestamp.time, tsa: facts.timestamp.tsa, valid: facts.timestamp.valid } : null,
    level,
    summary: summarize({ isTimestamp, verdict, facts, signature, modificationsAfter, proven, revokedAt, problems, warnings }),
    verdict,
    subFilter: signature.subFilter,
    claimedTime: signature.claimedTime?.toISOString() ?? null,
    revokedAt: revokedAt?.toISOString() ?? null,
    problems: [...problems, ...warnings],
    validation: {
      ...conclude(findings),
      validationTime: input.now.toISOString(),
      bestSignatureTime: proven?.toISOString() ?? null,
      chain: facts.chain ? chainReport({ chain: facts.chain.chain, trusted: facts.chain.trusted, at: proven ?? input.now, signerRevocation: facts.revocation, revocationSource: facts.revocationSource, nameOf: nameText }) : [],
    },
  }
}

/** ETSI EN 319 142-1 baseline levels, from what the file holds. */
function padesLevel(input: JudgeInput, isTimestamp: boolean, proven: boolean): SignatureReport['level'] {
  const { signature, facts } = input
  if (isTimestamp || signature.subFilter !== 'ETSI.CAdES.detached' || !facts.essBound || !facts.integrity) return null
  if (!proven) return 'B-B'
  const dssAfter = input.dssRevisions.filter((r) => r > input.revision)
  // B-LT only when the file answers for every certificate of the signer's and the TSA's paths
  // (check-signature.ts), not merely for the signer's: an uploaded certificate of a foreign CA
  // with no OCSP or CRL data for its intermediate is B-T, whatever else the DSS holds.
  if (dssAfter.length === 0 || !facts.validationDataComplete) return 'B-T'
  const archived = input.laterTimestamps.some((t) => t.revision > Math.min(...dssAfter))
  return archived ? 'B-LTA' : 'B-LT'
}

interface SummaryInput {
  isTimestamp: boolean
  verdict: Verdict
  facts: SignatureFacts
  signature: FoundSignature
  modificationsAfter: SignatureReport['modificationsAfter']
  proven: Date | undefined
  revokedAt: Date | undefined
  problems: string[]
  warnings: string[]
}

function summarize(input: SummaryInput): string {
  const who = input.facts.signer ? commonName(input.facts.signer.subject) : 'an unknown signer'
  const what = input.isTimestamp ? `Document timestamp by ${who}` : `Signed by ${who}${input.proven ? ` (timestamped ${input.proven.toISOString()})` : ''}`
  if (input.verdict === 'invalid') return `${what}: not valid. ${sentence(input.problems[0] ?? 'The signature does not verify')}`
  if (input.verdict === 'warning') return `${what}: intact, but ${lowerFirst(input.warnings[0]!)}.`
  const after = input.modificationsAfter === 'allowed' ? '; later changes are ones the document allows' : input.modificationsAfter === 'none' ? '; nothing changed after it' : ''
  const revoked = input.revokedAt ? `; the certificate was revoked later (${input.revokedAt.toISOString()}), after the timestamp` : ''
  return `${what}: valid${after}${revoked}.`
}

function commonName(subject: string): string {
  return /(?:^|\n)CN=([^\n]+)/.exec(subject)?.[1] ?? subject.split('\n')[0] ?? subject
}

function iso(text: string): string {
  const date = new Date(text)
  return Number.isNaN(date.getTime()) ? text : date.toISOString()
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`)
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) && !text.startsWith('The ') ? text : text.charAt(0).toLowerCase() + text.slice(1))
