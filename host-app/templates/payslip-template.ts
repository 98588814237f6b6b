import type { PdfTemplate, TemplateContext } from '../../plugins/signature/contracts/pdf-template.ts'
import type { PdfRendererClass } from '../../plugins/signature/contracts/pdf-renderer.ts'
import { SlotDefinition } from '../../plugins/signature/contracts/slot-definition.ts'
import { documentFileKey, sampleFileKey } from '../../plugins/signature/templates/file-keys.ts'
import { PayslipPdfRenderer, type PayslipData } from './payslip-pdf-renderer.ts'

// Fixed: the sample must be the same bytes every time.
const SAMPLE: PayslipData = {
  id: 'sample', employeeName: 'Sample Employee', period: 'March 2026', currency: 'EUR',
  lines: [{ label: 'Base salary', amount: 3200 }, { label: 'Overtime', amount: 240 }, { label: 'Tax', amount: -812.5 }, { label: 'Social security', amount: -301.25 }],
}

/**
 * A template written as a class (registered at runtime by the host, see host-app/signature.ts),
 * drawing with its own pdf-lib renderer. The registry instantiates it with its context.
 */
export class PayslipTemplate implements PdfTemplate {
  constructor(private readonly context: TemplateContext) {}

  key(): string { return 'payslip' }
  label(): string { return 'Payslip' }

  slots(): readonly SlotDefinition[] {
    return [
      new SlotDefinition({ key: 'employee', label: 'Employee', defaultPage: 1, defaultX: 56, defaultY: 92, defaultWidth: 204, defaultHeight: 44, required: true, signatory: 'employeeId', role: 'employee', order: 2 }),
      new SlotDefinition({ key: 'payroll', label: 'Payroll officer', defaultPage: 1, defaultX: 335, defaultY: 92, defaultWidth: 204, defaultHeight: 44, required: true, signatory: 'payrollOfficerId', role: 'payroll officer', order: 1 }),
    ]
  }

  renderer(): PdfRendererClass { return PayslipPdfRenderer }

  async renderSample(): Promise<string> {
    const key = sampleFileKey(this.key(), ['payslip-v1', SAMPLE])
    if (await this.context.disk.exists(key)) return this.context.disk.path(key)
    return this.context.renderer(PayslipPdfRenderer).render('payslip', { payslip: SAMPLE }, this.context.disk.path(key))
  }

  async renderFor(record: unknown): Promise<string> {
    const payslip = record as PayslipData
    return this.context.renderer(PayslipPdfRenderer).render('payslip', { payslip }, this.context.disk.path(documentFileKey(this.key(), record, payslip)))
  }
}
