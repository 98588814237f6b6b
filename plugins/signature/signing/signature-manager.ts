import { randomUUID } from 'node:crypto'
import type { Disk, StagedObject } from '../../../core/storage/disk.ts'
import type { Placement } from '../contracts/placement.ts'
import type { SignatureRepository } from '../library/signature-repository.ts'
import type { SigningMaterial } from '../library/signature-library.ts'
import type { PdfWorkerPool } from '../pdf/pdf-worker-pool.ts'
import type { LongTermValidation } from '../ltv/long-term-validation.ts'
import { sha256Hex } from './sha256-hex.ts'
import { signedSignatureRows, type SignedSignatureInput } from './signed-signature-rows.ts'

/** One box of a signature on a document. */
export interface StampPlacement extends Placement {
  /** The template's slot key; null for a box on an uploaded PDF. */
  slot: string | null
}

/** What was signed: a template key (or 'upload') and the record's id. */
export interface SignedSubject {
  type: string
  id: string
  /** The template the slots belong to; null when there is none (a record signed without a template, an upload). */
  templateKey: string | null
  /** Shown as the signature's reason in PDF readers. */
  title?: string
}

export interface SignedDocument {
  /** The child signature row made for this document. */
  uuid: string
  /** Disk-relative path of the signed PDF. */
  documentKey: string
  sha256: string
  signedAt: string
  bytes: Uint8Array
}

/** A check run inside the transaction that stores a signature's rows, before they are written. */
export type StoreGuard = (transaction: NonNullable<Parameters<SignatureRepository['insert']>[1]>) => Promise<void>

export interface SignatureManagerOptions {
  repository: SignatureRepository
  disk: Disk
  pdf: PdfWorkerPool
  now?: () => Date
  /**
   * B-LTA: the signed file gets its DSS and a document timestamp before it is written, so a
   * failure (a TSA down) writes nothing, as a failed signature does. Absent: B-T.
   */
  longTermValidation?: Pick<LongTermValidation, 'extend'>
  /** Told of each signature sign() made and stored (metrics). */
  onSigned?: () => void
}

/** Where the signed copy made by a child signature lives on the disk: unique, never overwritten. */
export function signedDocumentKey(childUuid: string): string {
  return `${ONE_PASS_PREFIX}${childUuid.slice(0, 2)}/${childUuid}.pdf`
}

const ONE_PASS_PREFIX = 'signed/'

/**
 * A document signed in one pass by this manager (the signer page, /api/sign), as opposed to a
 * revision of a signing session's document, which holds the other signers' signatures too.
 */
export function isOnePassDocumentKey(key: string | null): boolean {
  return key !== null && key.startsWith(ONE_PASS_PREFIX)
}

/**
 * Turns a library signature into a signed document: one child row (status 'signed', pointing at
 * its source), one position row per box, and the certified PDF on the disk. The file and the rows
 * commit together (see sign()): the document is staged under a fresh key and committed with the
 * rows' transaction — on a folder it is written first and removed again when the transaction
 * fails, in the database it is a row of that same transaction — so no row ever points at a
 * missing or half-written file and no failed attempt leaves a file behind.
 */
export class SignatureManager {
  readonly #repository: SignatureRepository
  readonly #disk: Disk
  readonly #pdf: PdfWorkerPool
  readonly #now: () => Date
  readonly #ltv: SignatureManagerOptions['longTermValidation']
  readonly #onSigned: () => void

  constructor(options: SignatureManagerOptions) {
    this.#repository = options.repository
    this.#disk = options.disk
    this.#pdf = options.pdf
    this.#now = options.now ?? (() => new Date())
    this.#ltv = options.longTermValidation
    this.#onSigned = options.onSigned ?? (() => {})
  }

  /** The child signature row and its position rows, inside the given transaction (or one of its own). */
  async storeForDocument(input: SignedSignatureInput & {
    /** Runs first inside the transaction: a rule that must still hold when the rows are written (it throws if not). */
    guard?: StoreGuard
    /** The signed document, committed in the same transaction as the rows. */
    document?: StagedObject
  }, transaction?: Parameters<SignatureRepository['insert']>[1]): Promise<void> {
    const { signature, positions } = signedSignatureRows(input)
    const write = async (db: NonNullable<typeof transaction>) => {
      await input.guard?.(db)
      await input.document?.commitIn(db)
      await this.#repository.insert(signature, db)
      await this.#repository.insertPositions(positions, db)
    }
    if (transaction) await write(transaction)
    else await this.#repository.db.transaction().execute(write)
  }

  /**
   * Shows the signature's image in every box (the signature field's widgets), signs with its
   * certificate in a worker — certifying with DocMDP P=2 so later signers may still sign, or, on a
   * document that is already signed, as an incremental update that keeps the earlier signatures
   * valid — and stages the result under `key`, to commit with the rows. Returns the disk-relative key and the bytes.
   */
  async embedAndFinalize(input: {
    pdf: Uint8Array
    material: SigningMaterial
    placements: StampPlacement[]
    key: string
    signedAt: Date
    reason?: string
    /** The PDF already carries a signature (inspectPdf): sign it incrementally, without certifying. */
    countersign?: boolean
  }): Promise<{ documentKey: string; sha256: string; bytes: Uint8Array; staged: StagedObject }> {
    const { material } = input
    const options = {
      stamps: input.placements.map((p) => ({ page: p.page, x: p.x, y: p.y, width: p.width, height: p.height, image: material.image })),
      signer: { p12: material.p12, password: material.password },
      reason: input.reason ?? 'Signed',
      ...(material.subject ? { name: commonName(material.subject) } : {}),
      signingTime: input.signedAt,
    }
    const signed = input.countersign
      ? await this.#pdf.run('countersignDocument', input.pdf, options)
      : await this.#pdf.run('signDocument', input.pdf, { ...options, certify: { p: 2 } })
    const bytes = this.#ltv ? (await this.#ltv.extend(signed)).pdf : signed
    const staged = await this.#disk.stage(input.key, bytes)
    return { documentKey: input.key, sha256: sha256Hex(bytes), bytes, staged }
  }

  /** embedAndFinalize + storeForDocument, committed together; several placements give one signature with several stamps. */
  async sign(input: {
    pdf: Uint8Array
    material: SigningMaterial
    subject: SignedSubject
    placements: StampPlacement[]
    guard?: StoreGuard
    /** The slots were signed before: why again (kept on the row, and in the PDF's /Reason). */
    resignReason?: string | undefined
    countersign?: boolean
  }): Promise<SignedDocument> {
    if (input.placements.length === 0) throw new Error('sign() needs at least one placement')
    const uuid = randomUUID()
    const signedAt = this.#now()
    const key = signedDocumentKey(uuid)
    const signed = input.subject.title ? `Signed: ${input.subject.title}` : 'Signed'
    const reason = input.resignReason ? `${signed} (signed again: ${input.resignReason})` : signed
    const file = await this.embedAndFinalize({ pdf: input.pdf, material: input.material, placements: input.placements, key, signedAt, reason, countersign: input.countersign ?? false })
    try {
      await this.storeForDocument({
        uuid, material: input.material, subject: input.subject, placements: input.placements,
        documentKey: file.documentKey, sha256: file.sha256, signedAt: signedAt.toISOString(), resignReason: input.resignReason,
        ...(input.guard ? { guard: input.guard } : {}),
        document: file.staged,
      })
    } catch (error) {
      await file.staged.discard().catch(() => {})
      throw error
    }
    this.#onSigned()
    return { uuid, documentKey: file.documentKey, sha256: file.sha256, signedAt: signedAt.toISOString(), bytes: file.bytes }
  }
}

function commonName(subject: string): string {
  return /(?:^|[,/]\s*)CN=([^,/]+)/.exec(subject)?.[1]?.trim() ?? subject
}
