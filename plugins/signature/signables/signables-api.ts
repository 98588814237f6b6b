import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Policy } from '../../../core/access/policy.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { SignableSource } from '../contracts/signable-source.ts'
import type { PdfTemplateRegistry } from '../registry/pdf-template-registry.ts'
import { requireTemplate } from '../registry/require-template.ts'
import { maySeeRecord } from './record-visibility.ts'
import { signatoriesOf } from './signatories.ts'
import { signedVersionsOfRecords } from './signed-versions.ts'
import { signerPageSlots } from './signer-page-slots.ts'
import { mayOpenDocumentSignedBy } from '../signing/signed-document-access.ts'
import type { SignatureTables } from '../database/schema.ts'
import type { UserRepository } from '../../../core/auth/user-repository.ts'
import type { Kysely } from 'kysely'

export interface SignablesApiOptions {
  registry: PdfTemplateRegistry
  source: SignableSource
  policy: Policy
  /** Where the record's signings are read from (digital_signatures). */
  db: Kysely<SignatureTables>
  users: UserRepository
}

const paramsSchema = z.strictObject({ templateKey: z.string().min(1).max(120) })

/**
 * GET /api/signables/:templateKey -> { data: [{ id, title, signatories, signed }] }: what the signed-in
 * user may sign, so the signer page and clients can find it; `signable` lists the slots the signer
 * page would let them sign now (empty: offer no "Sign"). A user sees the records where they are
 * a signatory of some slot (their own time records, and the ones they must countersign); a role
 * with `signatures:read-any` (admin, through `signatures:*`) sees all of them. `signed` lists every
 * signing of the record's slots, oldest first (slot, who, when, version, the reason of a signing
 * again, whether it was in a session), with its download for whoever may download it (its signer and read-any), else null.
 */
export async function signablesApi(app: FastifyInstance, { registry, source, policy, db, users }: SignablesApiOptions) {
  app.get('/api/signables/:templateKey', async (request) => {
    const user = requireUser(request.user)
    const { templateKey } = parseInput(paramsSchema, request.params, 'params')
    const template = requireTemplate(registry, templateKey)
    const records = (await source.forTemplate(templateKey)).filter((record) => maySeeRecord(policy, template, record, user))
    const versions = await signedVersionsOfRecords(db, templateKey, records.map((r) => r.getSignableId()))
    const names = new Map<string, string | null>()
    for (const userId of new Set([...versions.values()].flat().map((v) => v.userId))) names.set(userId, (await users.findById(userId))?.name ?? null)
    return {
      data: records.map((record) => {
        const signed = versions.get(record.getSignableId()) ?? []
        return {
          id: record.getSignableId(),
          title: record.getSignableTitle(),
          signatories: signatoriesOf(template, record),
          // What the signer page lets this user sign: the rule its finalize refuses by.
          signable: signerPageSlots(template, record, user.id, signed),
          signed: signed.map((v) => ({
            slot: v.slot, signer: { id: v.userId, name: names.get(v.userId) ?? null }, signedAt: v.signedAt, version: v.version, reason: v.reason,
            inSession: v.inSession,
            uuid: v.uuid, downloadUrl: mayOpenDocumentSignedBy(policy, user, v.userId) ? `/api/signatures/${v.uuid}/document` : null,
          })),
        }
      }),
    }
  })
}
