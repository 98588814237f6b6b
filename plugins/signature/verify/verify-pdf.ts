// Verifies every signature of a PDF and says, for each, what it covers, what changed after it and
// whether that is allowed, who signed and whether they are trusted, revoked or timestamped.
// Runs in the PDF worker pool (pdf-worker-tasks.ts): parsing each revision of a large file is
// tens of ms of CPU.
import { X509Certificate } from 'node:crypto'
import { loadPdf } from '../pdf/load-pdf.ts'
import { docMdpPermission } from '../pdf/docmdp-permission.ts'
import { withSignatureContentsSkipped } from '../pdf/signature-contents-skipped.ts'
import { analyzeRevisions } from './analyze-revisions.ts'
import { checkSignature, type SignatureFacts } from './check-signature.ts'
import { CertificateReader } from './certificate-reader.ts'
import { CoveredDigests } from './covered-digests.ts'
import { readDss } from './dss-contents.ts'
import { findSignatures } from './pdf-signatures.ts'
import { revisionEnds, revisionOf } from './pdf-revisions.ts'
import { SectionRecorder } from './revision-snapshots.ts'
import { judgeSignature } from './judge-signature.ts'
import type { SignatureReport, VerificationReport, Verdict } from './verification-report.ts'

export interface VerifyPdfOptions {
  /** PEM text of the trust anchors (the app's CA, TRUST_ANCHORS files); several certificates per text allowed. */
  trustAnchors: string[]
  /** Ask OCSP responders and CRL distribution points when the document carries no answer. */
  online?: { timeoutMs: number; maxBytes: number } | null
  /** The application CA's current CRL (DER), made in-process: its certificates' revocation without a request. */
  issuerCrls?: Uint8Array[]
  /** ISO time of "now" (tests); defaults to the clock. */
  now?: string
}

export async function verifyPdf(pdf: Uint8Array, options: VerifyPdfOptions): Promise<VerificationReport> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
  const parseable = withSignatureContentsSkipped(bytes)
  // The one parse of the file: the document, and every revision's object table (revision-snapshots.ts).
  const sections = new SectionRecorder()
  const doc = await loadPdf(parseable, { onSection: sections.onSection })
  const ends = revisionEnds(bytes)
  const found = findSignatures(doc, bytes)
  const p = docMdpPermission(doc)
  const certifying = found.find((s) => s.isCertification)
  const anchors = parseAnchors(options.trustAnchors)
  const certificates = new CertificateReader()
  const dss = await readDss(doc, certificates)
  const now = options.now ? new Date(options.now) : new Date()

  const located = found.map((signature) => {
    const coveredEnd = signature.byteRange && !signature.byteRangeProblem ? signature.byteRange[2]! + signature.byteRange[3]! : 0
    return { signature, coveredEnd, revision: coveredEnd ? revisionOf(ends, coveredEnd) : ends.length }
  })
  const firstSigned = Math.min(...located.map((l) => l.revision), ends.length)
  const certificationRevision = certifying ? located.find((l) => l.signature === certifying)!.revision : undefined
  // A new signature field is part of signing only when a signature whose byte range can be read fills it.
  const signedIn = new Map(located.filter((l) => l.signature.fieldRef && !l.signature.byteRangeProblem).map((l) => [l.signature.fieldRef!.toString(), l.revision]))
  const analysis = await analyzeRevisions(parseable, ends, firstSigned, doc,
    certificationRevision !== undefined ? { revision: certificationRevision, p: p ?? 2 } : undefined, signedIn, sections.revisions(doc, ends))

  const issuerCrls = (options.issuerCrls ?? []).map((crl) => Buffer.from(crl.buffer, crl.byteOffset, crl.byteLength))
  // One pass over the file gives every signature's digest and the document's (covered-digests.ts).
  const digests = new CoveredDigests(bytes, located.flatMap(({ signature }) => signature.byteRange && !signature.byteRangeProblem ? [signature.byteRange] : []))
  const context = { bytes, anchors, dss, online: options.online ?? null, issuerCrls, now, certificates, digests }
  // One malformed signature (a certificate node:crypto cannot read, odd DER) fails that signature, not the report.
  const facts = await Promise.all(located.map(({ signature }) => checkSignature(signature, context).catch((error: unknown): SignatureFacts => ({
    integrity: false, problems: [`The signature cannot be checked: ${error instanceof Error ? error.message : String(error)}`], failure: 'format', essBound: false, revocationSource: null, hasRevocationService: false,
  }))))
  const documentTimestamps = located
    .map((l, i) => ({ ...l, facts: facts[i]! }))
    .filter((l) => l.signature.type === 'DocTimeStamp' || l.signature.subFilter === 'ETSI.RFC3161')

  const signatures: SignatureReport[] = located.map(({ signature, coveredEnd, revision }, i) => judgeSignature({
    signature,
    facts: facts[i]!,
    revision,
    coversWholeDocument: coveredEnd === bytes.length,
    changes: [...analysis.changes.entries()].filter(([r]) => r > revision).flatMap(([, changes]) => changes),
    unreadableAfter: analysis.unreadable.filter((r) => r > revision),
    laterTimestamps: documentTimestamps.filter((t) => t.revision > revision && t.facts.integrity).map((t) => ({ revision: t.revision, time: t.facts.timestamp!.time! })),
    dssRevisions: analysis.dssRevisions,
    now,
  }))

  // A document timestamp proves when the file existed, not that anybody signed it (anyone can get
  // one from a public TSA): a document carrying nothing else is at most a warning.
  const signedByNobody = signatures.length > 0 && signatures.every((s) => s.kind === 'document-timestamp')
  const verdict: Verdict = signatures.length === 0 ? 'warning'
    : signatures.some((s) => s.verdict === 'invalid') ? 'invalid'
      : signedByNobody || signatures.some((s) => s.verdict === 'warning') ? 'warning' : 'valid'
  return {
    document: {
      sha256: digests.documentSha256().toString('hex'),
      pages: doc.getPageCount(),
      revisions: ends.length,
      certification: p !== undefined ? { p, field: certifying?.field ?? null } : null,
      level: documentLevel(signatures),
    },
    signatures,
    verdict,
    summary: documentSummary(signatures, verdict),
  }
}

const LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const

/** A document is as long-lived as its weakest signature; document timestamps have no level of their own. */
function documentLevel(signatures: SignatureReport[]): SignatureReport['level'] {
  const signed = signatures.filter((s) => s.kind !== 'document-timestamp')
  if (signed.length === 0 || signed.some((s) => s.level === null)) return null
  return LEVELS[Math.min(...signed.map((s) => LEVELS.indexOf(s.level!)))]!
}

// The anchors are the settings' (the app's CA, TRUST_ANCHORS): the same few texts on every call.
const anchorTexts = new Map<string, X509Certificate[]>()
const ANCHOR_TEXTS_LIMIT = 64

function parseAnchors(pems: string[]): X509Certificate[] {
  return pems.flatMap((pem) => {
    let certificates = anchorTexts.get(pem)
    if (!certificates) {
      certificates = readAnchors(pem)
      if (anchorTexts.size >= ANCHOR_TEXTS_LIMIT) anchorTexts.delete(anchorTexts.keys().next().value!)
      anchorTexts.set(pem, certificates)
    }
    return certificates
  })
}

function readAnchors(pem: string): X509Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).flatMap((block) => {
    try {
      return [new X509Certificate(block)]
    } catch {
      return []
    }
  })
}

function documentSummary(signatures: SignatureReport[], verdict: Verdict): string {
  if (signatures.length === 0) return 'The document carries no signature.'
  if (verdict !== 'invalid' && signatures.every((s) => s.kind === 'document-timestamp')) {
    const times = signatures.map((s) => s.timestamp?.time).filter((time): time is string => !!time).sort()
    const what = signatures.length === 1 ? 'a document timestamp' : `${signatures.length} document timestamps`
    const proves = times.length > 0 ? `the file existed in this form at ${times[0]}` : 'that the file existed at some time'
    return `Nobody signed this document. It carries only ${what}, which proves ${proves}, not who wrote or approved it.`
  }
  const count = signatures.length === 1 ? 'Its signature' : `All ${signatures.length} signatures`
  if (verdict === 'valid') return `${count} ${signatures.length === 1 ? 'is' : 'are'} valid and nothing forbidden changed after signing.`
  const bad = signatures.filter((s) => s.verdict === verdict).length
  return verdict === 'invalid'
    ? `${bad} of ${signatures.length} signature${signatures.length === 1 ? '' : 's'} ${bad === 1 ? 'is' : 'are'} not valid.`
    : `${bad} of ${signatures.length} signature${signatures.length === 1 ? '' : 's'} could not be fully confirmed.`
}
