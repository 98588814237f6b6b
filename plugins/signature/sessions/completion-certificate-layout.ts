import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'

// The certificate of completion as a plain A4 document: what happened to a session's document,
// who signed it from where and when, and its SHA-256 before and after each signature, so anyone
// holding the signed PDF can match it revision by revision. Built in a PDF worker (pdf-lib work
// is CPU); signed by the application afterwards.

export interface CompletionCertificateData {
  title: string
  sessionId: string
  template: string
  mode: string
  createdBy: string
  createdAt: string
  completedAt: string
  frozenSha256: string
  finalSha256: string
  signers: Array<{ name: string; email: string; slot: string; signedAt: string; address: string | null; identifiedBy?: string | null; userAgent?: string | null; sha256Before: string | null; sha256After: string | null }>
  events: Array<{ at: string; text: string }>
}

const A4 = [595.28, 841.89] as const
const MARGIN = 56
const SIZE = 10
const LEADING = 14

// The standard fonts encode WinAnsi only: anything else (a name in another script) shows as '?'
// rather than failing the certificate.
const printable = (text: string) => text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?')

class Writer {
  page!: PDFPage
  y = 0
  constructor(readonly doc: PDFDocument, readonly font: PDFFont, readonly bold: PDFFont) { this.newPage() }

  newPage() {
    this.page = this.doc.addPage([...A4])
    this.y = A4[1] - MARGIN
  }

  line(text: string, options: { bold?: boolean; size?: number; color?: [number, number, number]; indent?: number } = {}) {
    const font = options.bold ? this.bold : this.font
    const size = options.size ?? SIZE
    const width = A4[0] - 2 * MARGIN - (options.indent ?? 0)
    for (const part of wrap(printable(text), font, size, width)) {
      if (this.y < MARGIN) this.newPage()
      this.page.drawText(part, { x: MARGIN + (options.indent ?? 0), y: this.y, size, font, color: rgb(...(options.color ?? [0.07, 0.09, 0.15])) })
      this.y -= size + (LEADING - SIZE)
    }
  }

  gap(points = 8) { this.y -= points }
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = []
  let current = ''
  for (const word of text.split(/\s+/)) {
    const next = current ? `${current} ${word}` : word
    if (font.widthOfTextAtSize(next, size) <= width || !current) current = next
    else { lines.push(current); current = word }
  }
  lines.push(current)
  return lines
}

export async function completionCertificate(data: CompletionCertificateData): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const fixed = new Date(data.completedAt)
  // The same session gives the same bytes before signing: no clock, no random id.
  doc.setCreationDate(fixed)
  doc.setModificationDate(fixed)
  doc.setTitle(printable(`Certificate of completion: ${data.title}`))
  doc.setProducer('fastify-panels-signature')
  const w = new Writer(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold))
  const grey: [number, number, number] = [0.29, 0.33, 0.39]
  w.line('Certificate of completion', { bold: true, size: 18 })
  w.gap(6)
  w.line(data.title, { bold: true, size: 12 })
  w.line(`Signing session ${data.sessionId} (${data.template}, ${data.mode === 'sequential' ? 'one signer after another' : 'signers in any order'})`, { color: grey })
  w.line(`Started by ${data.createdBy} on ${data.createdAt}; completed on ${data.completedAt}.`, { color: grey })
  w.gap(10)
  w.line('Document', { bold: true, size: 12 })
  w.line(`SHA-256 of the document as sent for signing: ${data.frozenSha256}`)
  w.line(`SHA-256 of the completed, signed document: ${data.finalSha256}`)
  w.gap(10)
  w.line('Signers', { bold: true, size: 12 })
  for (const [i, s] of data.signers.entries()) {
    w.gap(4)
    w.line(`${i + 1}. ${s.name} <${s.email}>, signing "${s.slot}"`, { bold: true })
    w.line(`Signed on ${s.signedAt}${s.address ? ` from ${s.address}` : ''}`, { indent: 14 })
    if (s.identifiedBy) w.line(`Identified by ${s.identifiedBy}`, { indent: 14 })
    if (s.userAgent) w.line(`Browser: ${s.userAgent.slice(0, 90)}`, { indent: 14 })
    if (s.sha256Before) w.line(`SHA-256 before: ${s.sha256Before}`, { indent: 14, color: grey })
    if (s.sha256After) w.line(`SHA-256 after:  ${s.sha256After}`, { indent: 14, color: grey })
  }
  w.gap(10)
  w.line('History', { bold: true, size: 12 })
  for (const event of data.events) w.line(`${event.at}  ${event.text}`)
  w.gap(10)
  w.line('This certificate is signed by the application. Each SHA-256 above is that of the whole PDF file at that point; the signed document carries every signature itself.', { color: grey, size: 9 })
  return doc.save({ useObjectStreams: false })
}
