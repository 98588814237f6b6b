import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { ChromiumPdfRenderer, Slot, type PdfRendererClass, type PdfTemplate, type RendersSamplePageImage, type TemplateContext } from '../../plugins/signature/index.ts'

export interface ContractData {
  id: string
  employerName: string
  employeeName: string
  signedOn: string
  clauses: Array<{ title: string; text: string }>
}

const CLAUSES = [
  ['Position', 'The employee is engaged as a member of the operations team and reports to the operations manager.'],
  ['Working time', 'Normal working time is forty hours a week, recorded in daily time records signed by the employee and the supervisor.'],
  ['Pay', 'Pay is monthly, by bank transfer, as set out in the payslip delivered with each payment.'],
  ['Leave', 'The employee is entitled to twenty-five days of paid leave per calendar year.'],
  ['Confidentiality', 'The employee keeps confidential what they learn about the employer\'s business, during and after employment.'],
  ['Termination', 'Either party may end this contract with one month\'s notice in writing.'],
].map(([title, text]) => ({ title: title!, text: text! }))

const SAMPLE: ContractData = { id: 'sample', employerName: 'Example Ltd', employeeName: 'Sample Employee', signedOn: '1 March 2026', clauses: CLAUSES }
const VIEW = 'pdf.contract'

/**
 * The contract: two A4 pages (Chromium, Eta view), both parties sign on the last page. It supplies
 * its own page images (72 DPI, so one pixel is one point) instead of leaving that to the designer's
 * rasterizer. Declared fluently on the app-level signature plugin (host-app/app.ts).
 */
export class ContractTemplate implements PdfTemplate, RendersSamplePageImage {
  constructor(private readonly context: TemplateContext) {}

  key(): string { return 'contract' }
  label(): string { return 'Employment contract' }
  renderer(): PdfRendererClass { return ChromiumPdfRenderer }

  slots(): readonly Slot[] {
    return [
      Slot.make('employer').label('For the employer').required().at({ page: 2, x: 64, y: 112, width: 220, height: 54 }).signatory('employerId').role('employer').order(1),
      Slot.make('employee').label('Employee').required().at({ page: 2, x: 311, y: 112, width: 220, height: 54 }).signatory('employeeId').role('employee').order(2),
      // Optional and bound to nobody: whoever the session names witnesses last.
      Slot.make('witness').label('Witness').optional().at({ page: 2, x: 64, y: 36, width: 220, height: 54 }).role('witness').order(3),
    ]
  }

  async renderSample(): Promise<string> {
    const key = this.context.sampleFile(this.key(), [VIEW, 'contract-v1', SAMPLE])
    if (await this.context.disk.exists(key)) return this.context.disk.path(key)
    return this.context.renderer(ChromiumPdfRenderer).render(VIEW, { contract: SAMPLE }, this.context.disk.path(key))
  }

  async renderFor(record: unknown): Promise<string> {
    // Read field by field: a record may expose its fields as getters, which a spread would miss.
    const r = record as ContractData
    const contract: ContractData = { id: r.id, employerName: r.employerName, employeeName: r.employeeName, signedOn: r.signedOn, clauses: CLAUSES }
    return this.context.renderer(ChromiumPdfRenderer).render(VIEW, { contract }, this.context.disk.path(this.context.documentFile(this.key(), record, contract)))
  }

  async sampleImagePageCount(): Promise<number> {
    const mupdf = await import('mupdf')
    return mupdf.Document.openDocument(await readFile(await this.renderSample()), 'application/pdf').countPages()
  }

  /** Named after the sample it comes from, so a new sample never reuses an old page image. */
  async renderSampleAsImage(page: number): Promise<string> {
    const sample = await this.renderSample()
    const count = await this.sampleImagePageCount()
    if (!Number.isInteger(page) || page < 1 || page > count) throw new RangeError(`The contract sample has pages 1-${count} (asked for ${page})`)
    const key = `samples/${this.key()}/${path.basename(sample, '.pdf')}-page-${page}-72dpi.png`
    if (await this.context.disk.exists(key)) return this.context.disk.path(key)
    const mupdf = await import('mupdf')
    const document = mupdf.Document.openDocument(await readFile(sample), 'application/pdf')
    // 72 DPI: scale 1, one pixel per point, which is what RendersSamplePageImage promises.
    const png = document.loadPage(page - 1).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true).asPNG()
    return this.context.disk.put(key, png)
  }
}
