import { randomUUID } from 'node:crypto'
import type { Policy } from '../../../core/access/policy.ts'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { UUID } from '../../../core/http/uuid.ts'
import type { Disk } from '../../../core/storage/disk.ts'
import { ERR_DOCUMENT_NOT_FOUND } from '../errors.ts'
import { DOCUMENTS_PERMISSION, SESSION_PERMISSION } from '../permissions.ts'
import type { PdfWorkerPool } from '../pdf/pdf-worker-pool.ts'
import { sha256Hex } from '../signing/sha256-hex.ts'
import { assertPdfUpload } from '../signing/uploaded-pdf.ts'
import type { DocumentRepository } from './document-repository.ts'
import type { DocumentTable } from './documents-tables.ts'

export interface PageSize { page: number; width: number; height: number }

export interface DocumentJson {
  id: string
  filename: string
  pages: PageSize[]
  createdAt: string
}

export interface DocumentsDependencies {
  repository: DocumentRepository
  disk: Disk
  pdf: Pick<PdfWorkerPool, 'run'>
  policy: Policy
  now?: () => Date
}

type MaybeUser = PublicUser | null | undefined

/** A name safe in a path, a header and a mail: letters, digits, '.', '_', '-'. */
export function documentFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).at(-1) ?? ''
  const clean = base.replace(/[^A-Za-z0-9._ -]+/g, '-').replace(/\s+/g, ' ').trim().slice(0, 120)
  return clean || 'document.pdf'
}

export const documentJson = (row: DocumentTable): DocumentJson => ({
  id: row.id, filename: row.filename, pages: JSON.parse(row.pages) as PageSize[], createdAt: row.created_at,
})

/** Uploaded PDFs: stored as they came (the session freezes a copy), visible to their creator and read-any. */
export class Documents {
  constructor(readonly deps: DocumentsDependencies) {}

  async upload(user: MaybeUser, pdf: Buffer, filename: string | undefined): Promise<DocumentJson> {
    const creator = requireUser(user)
    assertPermission(this.deps.policy, creator, DOCUMENTS_PERMISSION.create)
    assertPdfUpload(pdf)
    // Parses in a worker: unreadable, encrypted and too complex files are refused with their 422s.
    const summary = await this.deps.pdf.run('inspectPdf', pdf)
    const id = randomUUID()
    const key = `documents/${id}.pdf`
    const row: DocumentTable = {
      id, filename: documentFileName(filename), created_by: creator.id, document_key: key, sha256: sha256Hex(pdf), size: pdf.length,
      pages: JSON.stringify(summary.pages.map((p, i) => ({ page: i + 1, width: round(p.width), height: round(p.height) }))),
      created_at: (this.deps.now?.() ?? new Date()).toISOString(),
    }
    // The bytes are committed with the row (a database disk writes them in its transaction).
    const staged = await this.deps.disk.stage(key, pdf)
    try {
      await this.deps.repository.insert(row, staged)
    } catch (error) {
      await staged.discard().catch(() => {})
      throw error
    }
    return documentJson(row)
  }

  /** The row, for its creator and signing-sessions:read-any; 404 for anyone else, as for an unknown id. */
  async visible(user: MaybeUser, id: string): Promise<DocumentTable> {
    const viewer = requireUser(user)
    const row = UUID.test(id) ? await this.deps.repository.find(id) : undefined
    if (!row) throw ERR_DOCUMENT_NOT_FOUND()
    if (row.created_by === viewer.id || this.deps.policy.can(viewer.role, SESSION_PERMISSION.readAny)) return row
    // The document of a saved template is the app's, like the template: anyone who may start a session from it sees it.
    if (this.deps.policy.can(viewer.role, SESSION_PERMISSION.create) && await this.deps.repository.backsTemplate(row.id)) return row
    throw ERR_DOCUMENT_NOT_FOUND()
  }

  async get(user: MaybeUser, id: string): Promise<DocumentJson> {
    return documentJson(await this.visible(user, id))
  }

  async path(user: MaybeUser, id: string): Promise<string> {
    return this.deps.disk.localPath((await this.visible(user, id)).document_key)
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000
}
