export interface SigningField { id?: string; type: string; page?: number; x?: number; y?: number; width?: number; height?: number; label?: string | null }
export function refusalFor(code: string | undefined, message: string | undefined): { text: string; ends: boolean; restart: boolean }
export function cleanCode(typed: unknown): string
export function initialsOf(name: unknown): string
export function fieldCaption(field: SigningField): string
export function filledForYou(fields: SigningField[], signerName: string): string
export function typedFields<F extends SigningField>(fields: F[]): F[]
export function overlayStyle(field: { x: number; y: number; width: number; height: number }, page: { width: number; height: number }): string
export function signBlocker(input: { readToEnd: boolean; hasSignature: boolean; fields: SigningField[]; values: Record<string, string> }): string
export function typedValues(fields: SigningField[], values: Record<string, string>): Record<string, string>
