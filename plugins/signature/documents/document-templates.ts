import { z } from 'zod'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { ERR_VALIDATION } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { Disk } from '../../../core/storage/disk.ts'
import { writeStampOf } from '../../../core/db/database.ts'
import { ERR_TEMPLATE_EXISTS, ERR_TEMPLATE_NOT_FOUND, ERR_TEMPLATE_NOT_SAVED } from '../errors.ts'
import { TEMPLATES_CREATE_PERMISSION, TEMPLATES_DELETE_PERMISSION } from '../permissions.ts'
import type { PdfTemplateRegistry } from '../registry/pdf-template-registry.ts'
import { isValidTemplateKey, MAX_KEY_LENGTH } from '../templates/template-key.ts'
import { assertFieldsValid, documentFieldSchema, MAX_DOCUMENT_FIELDS, MAX_DOCUMENT_SIGNERS, type DocumentField } from './document-fields.ts'
import { DocumentPdfTemplate, isDocumentPdfTemplate } from './document-pdf-template.ts'
import type { DocumentRepository } from './document-repository.ts'
import type { Documents, PageSize } from './documents.ts'
import type { DocumentTemplateTable } from './documents-tables.ts'

const templateName = z.string().trim().min(1).max(80)

const saveSchema = z.strictObject({
  name: templateName,
  /** The signers' roles, in signing order ("Employee", "HR"); default "Signer 1", "Signer 2", ... */
  signers: z.array(z.strictObject({ role: z.string().trim().min(1).max(80) })).min(1).max(MAX_DOCUMENT_SIGNERS).optional(),
  fields: z.array(documentFieldSchema).min(1).max(MAX_DOCUMENT_FIELDS),
})

const renameSchema = z.strictObject({ name: templateName })

export interface DocumentTemplateJson {
  key: string
  label: string
  document: { id: string; filename: string; pages: PageSize[] }
  signers: Array<{ role: string }>
  fields: DocumentField[]
  createdAt: string
}

/** The key a name gives: lower-case words joined by '-' ("NDA (2026)" -> "nda-2026"); '' when it has no letter or digit. */
export function templateKeyOf(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, MAX_KEY_LENGTH).replace(/-+$/, '')
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/**
 * Documents saved as templates (issue 38, item 6): the registry's runtime way, from the UI. A row
 * keeps the document and its fields by role. Every instance's registry follows the rows: refresh()
 * reads them again whenever the database's write stamp moved (a save, rename or delete here or on
 * another instance), and the registry's lists await it (registry.fresh()). A session from one
 * reads the row itself, so it never depends on when this instance last looked.
 */
export class DocumentTemplates {
  readonly #writeStamp: (() => number | Promise<number>) | undefined
  /** The stamp the registry was last brought up to date under; undefined before the first time. */
  #synced: number | undefined
  /** The read under way, with the stamp it was started under: callers asking under that stamp share it. */
  #reading: { stamp: number | undefined; done: Promise<void> } | undefined

  constructor(readonly deps: {
    repository: DocumentRepository; documents: Documents; registry: PdfTemplateRegistry; disk: Disk; now?: () => Date
    /** Default: the stamp of the repository's database (core/db/database.ts); none: every refresh reads. */
    writeStamp?: () => number | Promise<number>
  }) {
    this.#writeStamp = deps.writeStamp ?? writeStampOf(deps.repository.db)
  }

  async save(user: PublicUser | null | undefined, documentId: string, body: unknown): Promise<DocumentTemplateJson> {
    const creator = requireUser(user)
    assertPermission(this.deps.documents.deps.policy, creator, TEMPLATES_CREATE_PERMISSION)
    const input = parseInput(saveSchema, body, 'body')
    const key = templateKeyOf(input.name)
    if (!key) throw ERR_VALIDATION('body.name: a name needs a letter or a digit', { details: { issues: [{ path: 'body.name', message: 'a name needs a letter or a digit' }] } })
    // The creator's own document, or one they may read as any: else 404, as for an unknown id.
    const document = await this.deps.documents.visible(creator, documentId)
    const count = input.signers?.length ?? Math.max(...input.fields.map((f) => f.signer)) + 1
    const roles = input.signers?.map((s) => s.role) ?? Array.from({ length: count }, (_, i) => `Signer ${i + 1}`)
    assertFieldsValid({ signers: roles, fields: input.fields }, JSON.parse(document.pages) as PageSize[])
    // A key another instance freed or took meanwhile is seen before the check.
    await this.refresh()
    if (this.deps.registry.has(key)) throw ERR_TEMPLATE_EXISTS(`A template with the key ${JSON.stringify(key)} exists already: choose another name`)
    const row: DocumentTemplateTable = {
      key, label: input.name, document_id: document.id, roles: JSON.stringify(roles), fields: JSON.stringify(input.fields),
      created_by: creator.id, created_at: (this.deps.now?.() ?? new Date()).toISOString(),
    }
    try {
      await this.deps.repository.insertTemplate(row)
    } catch (error) {
      // Saved meanwhile here or by another instance.
      if (isUniqueViolation(error)) throw ERR_TEMPLATE_EXISTS(`A template with the key ${JSON.stringify(key)} exists already: choose another name`)
      throw error
    }
    this.deps.registry.register(new DocumentPdfTemplate(row, document.document_key, this.deps.disk), 'runtime')
    return templateJson(row, document)
  }

  /** A new label; the key stays (placements, sessions and their history name it). */
  async rename(user: PublicUser | null | undefined, key: string, body: unknown): Promise<DocumentTemplateJson> {
    assertPermission(this.deps.documents.deps.policy, requireUser(user), TEMPLATES_CREATE_PERMISSION)
    const { name } = parseInput(renameSchema, body, 'body')
    await this.#assertSaved(key)
    if (!await this.deps.repository.renameTemplate(key, name)) throw notFound(key)
    const row = await this.deps.repository.templateWithDocument(key)
    if (!row) throw notFound(key)
    this.deps.registry.register(new DocumentPdfTemplate(row, row.document_key, this.deps.disk), 'runtime')
    return templateJson(row, { id: row.document_id, filename: row.filename, pages: row.pages })
  }

  /**
   * The row and the registry's entry. Sessions started from it keep working: they froze their own
   * copy of the document and read nothing of the template again. The uploaded document stays (see
   * DocumentRepository.deleteTemplate).
   */
  async remove(user: PublicUser | null | undefined, key: string): Promise<void> {
    assertPermission(this.deps.documents.deps.policy, requireUser(user), TEMPLATES_DELETE_PERMISSION)
    await this.#assertSaved(key)
    if (!await this.deps.repository.deleteTemplate(key)) throw notFound(key)
    if (isDocumentPdfTemplate(this.deps.registry.find(key))) this.deps.registry.unregister(key)
  }

  /** Every saved template, for whoever may create sessions (the New document page lists them). */
  async list(): Promise<DocumentTemplateJson[]> {
    const rows = await this.deps.repository.templates()
    return rows.map((row) => templateJson(row, { id: row.document_id, filename: row.filename, pages: row.pages }))
  }

  /**
   * The registry's saved templates as the rows are now, when the write stamp moved since the last
   * time (else nothing is read): new rows registered, changed ones replaced, deleted ones taken out.
   * A key that config or code declared is theirs: never registered over, never taken out.
   */
  async refresh(): Promise<void> {
    const stamp = this.#writeStamp ? await this.#writeStamp() : undefined
    if (stamp !== undefined && stamp === this.#synced) return
    if (stamp !== undefined && this.#reading?.stamp === stamp) return this.#reading.done
    // One read at a time, in the order asked: an older read never lands after a newer one. Under
    // the stamp taken before it: a write landing meanwhile moves the stamp, and the next call reads again.
    const done = (this.#reading?.done ?? Promise.resolve()).catch(() => {}).then(async () => {
      await this.#reconcile()
      if (stamp !== undefined) this.#synced = stamp
    })
    const reading = { stamp, done }
    this.#reading = reading
    try {
      await done
    } finally {
      if (this.#reading === reading) this.#reading = undefined
    }
  }

  /** At boot: every saved template into the registry (after config and code, whose keys win). */
  async registerSaved(): Promise<number> {
    await this.refresh()
    return [...this.deps.registry.all().values()].filter(isDocumentPdfTemplate).length
  }

  async #reconcile(): Promise<void> {
    const registry = this.deps.registry
    const rows = await this.deps.repository.templates()
    const keys = new Set<string>()
    for (const row of rows) {
      keys.add(row.key)
      const known = registry.find(row.key)
      if (known && !isDocumentPdfTemplate(known)) continue
      if (known && known.label() === row.label && known.documentId === row.document_id && JSON.stringify(known.roles) === row.roles && JSON.stringify(known.fields) === row.fields) continue
      registry.register(new DocumentPdfTemplate(row, row.document_key, this.deps.disk), 'runtime')
    }
    for (const [key, template] of registry.all()) {
      if (isDocumentPdfTemplate(template) && !keys.has(key)) registry.unregister(key)
    }
  }

  /**
   * 404 for a key nobody declared or saved; 409 for one the config or code declared (theirs to
   * change). The row decides, not this registry: a save on another instance whose notification has
   * not arrived yet is already a row.
   */
  async #assertSaved(key: string): Promise<void> {
    const row = isValidTemplateKey(key) ? await this.deps.repository.findTemplate(key) : undefined
    const registered = isValidTemplateKey(key) ? this.deps.registry.find(key) : null
    if (registered && !isDocumentPdfTemplate(registered)) {
      throw ERR_TEMPLATE_NOT_SAVED(`The template ${JSON.stringify(key)} is declared in configuration or code, not saved from a document: it is renamed or removed there`)
    }
    if (!row) throw notFound(key)
  }
}

function notFound(key: string) {
  return ERR_TEMPLATE_NOT_FOUND(`No saved template has the key ${JSON.stringify(key)}`)
}

function templateJson(row: DocumentTemplateTable, document: { id: string; filename: string; pages: string }): DocumentTemplateJson {
  return {
    key: row.key, label: row.label,
    document: { id: document.id, filename: document.filename, pages: JSON.parse(document.pages) as PageSize[] },
    signers: (JSON.parse(row.roles) as string[]).map((role) => ({ role })),
    fields: JSON.parse(row.fields) as DocumentField[],
    createdAt: row.created_at,
  }
}
