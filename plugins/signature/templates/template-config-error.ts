/** A bad template declaration: stops the boot, naming the template and the field. */
export class TemplateConfigError extends Error {
  constructor(readonly templateKey: string, readonly field: string, problem: string) {
    super(`PDF template "${templateKey}": ${field}: ${problem}`)
    this.name = 'TemplateConfigError'
  }
}
