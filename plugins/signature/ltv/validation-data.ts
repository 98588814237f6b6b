// The validation data a /DSS update carries, as plain data that crosses to a PDF worker: DER
// values, and per signature (its /VRI key) the indexes of the values that validate it.
export interface ValidationData {
  certificates: Uint8Array[]
  ocsps: Uint8Array[]
  crls: Uint8Array[]
  vri: Array<{ key: string; certificates: number[]; ocsps: number[]; crls: number[] }>
}

export function isEmpty(data: ValidationData): boolean {
  return data.certificates.length + data.ocsps.length + data.crls.length === 0
}
