import { atomicWriteFile } from '../../core/index.ts'
import { FIXED_PDF_DATE, type PdfRenderer } from '../../plugins/signature/index.ts'

export interface PayslipData {
  id: string
  employeeName: string
  period: string
  currency: string
  lines: Array<{ label: string; amount: number }>
}

// A4 portrait, points.
export const PAYSLIP_PAGE = { width: 595.28, height: 841.89 }

/**
 * Draws the payslip with pdf-lib: no browser, so payslips work on a machine without Chromium.
 * The `view` argument is the layout name; this renderer knows one.
 */
export class PayslipPdfRenderer implements PdfRenderer {
  static isAvailable(): boolean {
    return true
  }

  async render(view: string, data: Record<string, unknown>, destinationPath: string): Promise<string> {
    if (view !== 'payslip') throw new Error(`PayslipPdfRenderer draws the 'payslip' layout only (got ${JSON.stringify(view)})`)
    const payslip = data.payslip as PayslipData
    // pdf-lib loads with the first payslip, not at start (see deterministic-pdf.ts).
    const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib')
    // updateMetadata: false + fixed dates: same data, same bytes.
    const document = await PDFDocument.create({ updateMetadata: false })
    document.setTitle(`Payslip ${payslip.id}`)
    document.setProducer('fastify-panels-signature (pdf-lib)')
    document.setCreationDate(FIXED_PDF_DATE)
    document.setModificationDate(FIXED_PDF_DATE)
    const font = await document.embedFont(StandardFonts.Helvetica)
    const bold = await document.embedFont(StandardFonts.HelveticaBold)
    const page = document.addPage([PAYSLIP_PAGE.width, PAYSLIP_PAGE.height])

    page.drawText('Payslip', { x: 56, y: 780, size: 22, font: bold })
    page.drawText(`${payslip.employeeName} - ${payslip.period}`, { x: 56, y: 752, size: 12, font })
    page.drawText(`Reference ${payslip.id}`, { x: 56, y: 736, size: 9, font, color: rgb(0.4, 0.4, 0.4) })

    let y = 690
    let total = 0
    for (const line of payslip.lines) {
      page.drawText(line.label, { x: 56, y, size: 11, font })
      const amount = money(line.amount, payslip.currency)
      page.drawText(amount, { x: 539 - font.widthOfTextAtSize(amount, 11), y, size: 11, font })
      total += line.amount
      y -= 20
    }
    page.drawLine({ start: { x: 56, y: y + 8 }, end: { x: 539, y: y + 8 }, thickness: 0.75 })
    const net = money(total, payslip.currency)
    page.drawText('Net pay', { x: 56, y: y - 10, size: 12, font: bold })
    page.drawText(net, { x: 539 - bold.widthOfTextAtSize(net, 12), y: y - 10, size: 12, font: bold })

    // Signature lines under the payslip's slots (see payslip-template.ts).
    for (const [x, label] of [[56, 'Employee'], [335, 'Payroll officer']] as const) {
      page.drawLine({ start: { x, y: 90 }, end: { x: x + 204, y: 90 }, thickness: 0.75 })
      page.drawText(label, { x, y: 76, size: 9, font })
    }
    return atomicWriteFile(destinationPath, await document.save({ useObjectStreams: false }))
  }
}

function money(amount: number, currency: string): string {
  return `${currency} ${amount.toFixed(2)}`
}
