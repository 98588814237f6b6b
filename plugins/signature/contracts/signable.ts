/**
 * A record that can be signed. A record may implement this directly, with no template at all
 * (the older flow); HasPdfTemplate implements it for records that name a template.
 */
export interface Signable {
  getSignableId(): string
  getSignableTitle(): string
  /** Absolute path of the PDF to sign. */
  getSignablePdfPath(): Promise<string>
}

export function isSignable(value: unknown): value is Signable {
  const v = value as Partial<Signable> | null
  return typeof v === 'object' && v !== null && typeof v.getSignableId === 'function'
    && typeof v.getSignableTitle === 'function' && typeof v.getSignablePdfPath === 'function'
}
