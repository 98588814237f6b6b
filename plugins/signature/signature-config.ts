import { z } from 'zod'
import type { ViewTemplateEntry } from './templates/view-template-entry.ts'

export interface SignatureConfigInput {
  storage_disk?: string
  designer?: { dpi?: number | string }
  /** Bounds on the work one document or image may cause (README: "Limits"). */
  limits?: { pdf_decoded_mb?: number | string; task_timeout_ms?: number | string; worker_heap_mb?: number | string; worker_idle_ms?: number | string }
  sessions?: { stale_claim_ms?: number | string; seal_retry_every_ms?: number | string }
  /** Uploaded documents and signers by e-mail (docs/signing-documents-api.md): abuse limits. */
  documents?: {
    invitations_per_address_per_day?: number | string; sessions_per_creator_per_hour?: number | string
    codes_per_link_per_hour?: number | string; codes_per_address_per_hour?: number | string
  }
  /** Sweeping what crashes leave on the signature disk (docs/operating.md). */
  storage?: { grace_ms?: number | string; sweep_every_ms?: number | string }
  /** The outbox's dispatcher (README: "E-mail and webhooks"). */
  outbox?: { dispatch?: boolean | string; poll_ms?: number | string; stale_claim_ms?: number | string; retry_base_ms?: number | string; retention_days?: number | string }
  /** Signature timestamps (README: "Signature timestamps"). */
  timestamps?: { enabled?: boolean | string; tsa_urls?: string | string[]; tsa_timeout_ms?: number | string; tsa_max_response_kb?: number | string; public_tsa?: boolean | string }
  /** Template key -> entry; each becomes a ViewPdfTemplate (its own checks name key and field). */
  templates?: Record<string, ViewTemplateEntry>
  /** The verifier (POST /api/verify, /verify; README: "Verifying a signed PDF"). */
  verify?: {
    trust_anchors?: string; online_revocation?: boolean | string; rate_per_minute?: number | string; public?: boolean | string
    workers?: number | string; queue?: number | string; max_revisions?: number | string; max_objects?: number | string; max_revision_objects?: number | string
  }
}

const tsaUrl = z.string().refine((value) => {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password
  } catch {
    return false
  }
}, 'an http(s) URL without credentials')

const signatureConfigSchema = z.strictObject({
  storage_disk: z.string().regex(/^[A-Za-z0-9._-]+$/, 'a disk name (letters, digits, ".", "_", "-")').default('signature'),
  designer: z.strictObject({
    // From SIGNATURE_DESIGNER_DPI (a string) or a number; 72 is the floor (one pixel per point).
    dpi: z.coerce.number().int().min(72).max(600).default(144),
  }).default({ dpi: 144 }),
  limits: z.strictObject({
    // From SIGNATURE_PDF_DECODED_MB etc. (strings) or numbers.
    pdf_decoded_mb: z.coerce.number().int().min(1).max(4096).default(64),
    task_timeout_ms: z.coerce.number().int().min(100).max(600_000).default(15_000),
    worker_heap_mb: z.coerce.number().int().min(64).max(16_384).default(512),
    // 0 keeps workers until shutdown.
    worker_idle_ms: z.coerce.number().int().min(0).max(24 * 3_600_000).default(30_000),
  }).default({ pdf_decoded_mb: 64, task_timeout_ms: 15_000, worker_heap_mb: 512, worker_idle_ms: 30_000 }),
  sessions: z.strictObject({
    // From SIGNATURE_SESSION_STALE_CLAIM_MS. A finalize claims its request for this long; a claim
    // older than this is a dead process's and the next finalize (or a decline) may take it over.
    // Longer than any real signing; tests shorten it to see a crash recovered without waiting.
    stale_claim_ms: z.coerce.number().int().min(100).max(24 * 3_600_000).default(5 * 60_000),
    // From SIGNATURE_SEAL_RETRY_EVERY_MS. Completed sessions left at B-T (a crash or a TSA down
    // right after the last signature) are sealed at boot and then this often; 0: at boot only.
    seal_retry_every_ms: z.coerce.number().int().min(0).max(30 * 24 * 3_600_000).default(10 * 60_000),
  }).default({ stale_claim_ms: 5 * 60_000, seal_retry_every_ms: 10 * 60_000 }),
  documents: z.strictObject({
    // A creator cannot mail-bomb an address: invitations to one external address, whoever sends them.
    invitations_per_address_per_day: z.coerce.number().int().min(1).max(100_000).default(20),
    sessions_per_creator_per_hour: z.coerce.number().int().min(1).max(100_000).default(30),
    codes_per_link_per_hour: z.coerce.number().int().min(1).max(1_000).default(5),
    codes_per_address_per_hour: z.coerce.number().int().min(1).max(1_000).default(10),
  }).default({ invitations_per_address_per_day: 20, sessions_per_creator_per_hour: 30, codes_per_link_per_hour: 5, codes_per_address_per_hour: 10 }),
  storage: z.strictObject({
    // From SIGNATURE_STORAGE_GRACE_MS. Temporary files and files no row references are removed
    // only once older than this, so a write still in flight on any instance (its row not yet
    // committed) is never swept: keep it far above the longest signing.
    grace_ms: z.coerce.number().int().min(100).max(30 * 24 * 3_600_000).default(3_600_000),
    // From SIGNATURE_STORAGE_SWEEP_EVERY_MS: how often the sweep runs after the one at boot; 0: at boot only.
    sweep_every_ms: z.coerce.number().int().min(0).max(30 * 24 * 3_600_000).default(3_600_000),
  }).default({ grace_ms: 3_600_000, sweep_every_ms: 3_600_000 }),
  outbox: z.strictObject({
    // From SIGNATURE_OUTBOX_DISPATCH: 'false' makes an instance that only writes rows (several web
    // instances, one or more senders); every instance sends by default, the claims keep it once.
    dispatch: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
    // How often an instance looks for due rows besides the kick after each commit (retries, rows
    // left by a crashed instance).
    poll_ms: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
    // A send claimed longer ago than this belongs to a dead process and is taken over; longer than
    // any send (the webhook timeout is 10 s, SMTP's 30 s).
    stale_claim_ms: z.coerce.number().int().min(100).max(24 * 3_600_000).default(2 * 60_000),
    // First retry after this; doubled each failure, at most an hour apart, given up after a day.
    retry_base_ms: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
    // Sent and given-up rows (and their .eml files) older than this are deleted; 0 keeps them all.
    retention_days: z.coerce.number().int().min(0).max(36_500).default(90),
  }).default({ dispatch: true, poll_ms: 5_000, stale_claim_ms: 2 * 60_000, retry_base_ms: 10_000, retention_days: 90 }),
  verify: z.strictObject({
    // From TRUST_ANCHORS: PEM files (comma-separated paths) trusted besides the app's own CA.
    trust_anchors: z.string().default('').transform((v) => v.split(',').map((p) => p.trim()).filter(Boolean)),
    // From SIGNATURE_VERIFY_ONLINE: ask the OCSP responders and CRLs a trusted certificate names
    // when the document carries no answer. Off by default: a verification then makes no request.
    online_revocation: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
    // From SIGNATURE_VERIFY_RATE_PER_MINUTE: verifications per client address and minute (public endpoint).
    rate_per_minute: z.coerce.number().int().min(1).max(100_000).default(30),
    // From SIGNATURE_VERIFY_PUBLIC: 'false' keeps the verifier to signed-in users (no /verify page).
    public: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
    // Uploaded documents are verified in their own worker threads, never in those that sign
    // (issue 35 item 11): SIGNATURE_VERIFY_WORKERS of them, SIGNATURE_VERIFY_QUEUE waiting at most
    // (503 ERR_VERIFY_BUSY past it).
    workers: z.coerce.number().int().min(1).max(16).default(1),
    queue: z.coerce.number().int().min(0).max(1_000).default(4),
    // Refused before any worker reads the file (docs/signing.md, "Limits of the verifier"):
    // reading costs revisions x objects, since each revision is compared with the one before.
    max_revisions: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
    max_objects: z.coerce.number().int().min(1).max(100_000_000).default(100_000),
    max_revision_objects: z.coerce.number().int().min(1).max(1e12).default(2_000_000),
  }).default({ trust_anchors: [], online_revocation: false, rate_per_minute: 30, public: true, workers: 1, queue: 4, max_revisions: 1_000, max_objects: 100_000, max_revision_objects: 2_000_000 }),
  timestamps: z.strictObject({
    // From SIGNATURE_TIMESTAMPS: 'off' makes every signature PAdES B-B (no timestamp), even with
    // TSAs listed. On (the default), every signature carries an RFC 3161 timestamp from the
    // first TSA of tsa_urls that answers, and is refused (503) when none does.
    enabled: z.union([z.boolean(), z.enum(['on', 'off', 'true', 'false']).transform((v) => v === 'on' || v === 'true')]).default(true),
    // From SIGNATURE_TSA_URLS: comma-separated, tried in order. Empty: the application's own TSA.
    tsa_urls: z.union([z.string(), z.array(z.string())])
      .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((u) => u.trim()).filter(Boolean))
      .pipe(z.array(tsaUrl).max(10)).default([]),
    // Longest wait for one TSA's whole answer; with several TSAs their sum must stay under limits.task_timeout_ms.
    tsa_timeout_ms: z.coerce.number().int().min(100).max(60_000).default(5_000),
    tsa_max_response_kb: z.coerce.number().int().min(4).max(4096).default(128),
    // From SIGNATURE_PUBLIC_TSA: 'false' unmounts POST /pki/tsa (the app still timestamps in-process).
    public_tsa: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
  }).default({ enabled: true, tsa_urls: [], tsa_timeout_ms: 5_000, tsa_max_response_kb: 128, public_tsa: true }),
  templates: z.record(z.string(), z.custom<ViewTemplateEntry>((v) => typeof v === 'object' && v !== null, 'an entry object')).default({}),
})

export type SignatureConfig = z.output<typeof signatureConfigSchema>

/** Validates config/signature.ts at boot; a bad value stops the boot naming the field. */
export function parseSignatureConfig(input: SignatureConfigInput): SignatureConfig {
  const result = signatureConfigSchema.safeParse(input)
  if (!result.success) {
    throw new Error(`Invalid signature configuration: ${result.error.issues.map((i) => `signature.${i.path.join('.')}: ${i.message}`).join('; ')}`)
  }
  return result.data
}
