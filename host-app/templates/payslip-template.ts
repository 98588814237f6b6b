import { Slot, type PdfRendererClass, type PdfTemplate, type TemplateContext } from '../../plugins/signature/index.ts'
import { PayslipPdfRenderer, type PayslipData } from './payslip-pdf-renderer.ts'

// Fixed: the sample must be the same bytes every time.
const SAMPLE: PayslipData = {
  id: 'sample', employeeName: 'Sample Employee', period: 'March 2026', currency: 'EUR',
  lines: [{ label: 'Base salary', amount: 3200 }, { label: 'Overtime', amount: 240 }, { label: 'Tax', amount: -812.5 }, { label: 'Social security', amount: -301.25 }],
}

/**
 * A template written as a class (registered at runtime by the host, see host-app/app.ts),
 * drawing with its own pdf-lib renderer. The registry instantiates it with its context.
 */
export class PayslipTemplate implements PdfTemplate {
  constructor(private readonly context: TemplateContext) {}

  key(): string { return 'payslip' }
  label(): string { return 'Payslip' }

  slots(): readonly Slot[] {
    return [
      Slot.make('employee').label('Employee').required().at({ page: 1, x: 56, y: 92, width: 204, height: 44 }).signatory('employeeId').role('employee').order(2),
      Slot.make('payroll').label('Payroll officer').required().at({ page: 1, x: 335, y: 92, width: 204, height: 44 }).signatory('payrollOfficerId').role('payroll officer').order(1),
    ]
  }

  renderer(): PdfRendererClass { return PayslipPdfRenderer }

  async renderSample(): Promise<string> {
    const key = this.context.sampleFile(this.key(), ['payslip-v1', SAMPLE])
    if (await this.context.disk.exists(key)) return this.context.disk.path(key)
    return this.context.renderer(PayslipPdfRenderer).render('payslip', { payslip: SAMPLE }, this.context.disk.path(key))
  }

  async renderFor(record: unknown): Promise<string> {
    const payslip = record as PayslipData
    return this.context.renderer(PayslipPdfRenderer).render('payslip', { payslip }, this.context.disk.path(this.context.documentFile(this.key(), record, payslip)))
  }
}
