export interface FieldTypeInfo { type: 'signature' | 'date' | 'name' | 'initials' | 'text'; label: string; width: number; height: number }
export const FIELD_TYPES: FieldTypeInfo[]
export function fieldType(type: string): FieldTypeInfo
export interface EditorSigner { key: string; name: string; user?: string; email?: string; role?: string; placeholder?: boolean; colour?: number }
export interface EditorField { id: string; signer: string; type: string; page: number; x: number; y: number; width: number; height: number; label?: string }
export function signerProblem(candidate: { user?: string; name?: string; email?: string }, signers: EditorSigner[]): string | null
export function signersWithoutSignature(signers: EditorSigner[], fields: EditorField[]): EditorSigner[]
export function sendProblems(signers: EditorSigner[], fields: EditorField[]): string[]
export function sessionBody(input: { document: string; mode: string; message: string; dueAt: string; signers: EditorSigner[]; fields: EditorField[] }): {
  document: string; mode: string; message?: string; dueAt?: string
  signers: Array<{ user: string } | { email: string; name: string }>
  fields: Array<{ signer: number; type: string; page: number; x: number; y: number; width: number; height: number; label?: string }>
}
export function refusalInWords(message: string, signers: EditorSigner[], fields: EditorField[]): string[]
export interface SavedTemplate { key: string; label: string; document: { id: string; filename: string; pages: Array<{ page: number; width: number; height: number }> }; signers: Array<{ role: string }>; fields: Array<{ signer: number; type: string; page: number; x: number; y: number; width: number; height: number; label?: string }> }
export function templateSaveBody(input: { name: string; signers: EditorSigner[]; fields: EditorField[] }): { name: string; signers: Array<{ role: string }>; fields: ReturnType<typeof sessionBody>['fields'] }
export function editorFromTemplate(template: SavedTemplate, nextKey: (prefix: string) => string): { signers: EditorSigner[]; fields: EditorField[] }
export function templateSessionBody(input: { template: string; mode: string; message: string; dueAt: string; signers: EditorSigner[] }): {
  template: string; mode: string; message?: string; dueAt?: string
  signers: Array<{ user: string } | { email: string; name: string }>
}
