import type { SignatureConfigInput } from '../plugins/signature/signature-config.ts'

// The signature plugin's configuration: plain data (and a few functions), validated at boot by
// parseSignatureConfig(). Templates here are registered eagerly, also for command-line scripts.
export const signature: SignatureConfigInput = {
  /** Disk for sample and generated PDFs; by default a folder under the git-ignored storage/. */
  storage_disk: process.env.SIGNATURE_STORAGE_DISK ?? 'signature',
  designer: {
    /** Page images for the placement designer; higher is sharper, slower and bigger. */
    dpi: process.env.SIGNATURE_DESIGNER_DPI ?? 144,
  },
  limits: {
    /** What one PDF's compressed streams may expand to while it is read (413 ERR_PDF_DECODED_TOO_LARGE past it). */
    pdf_decoded_mb: process.env.SIGNATURE_PDF_DECODED_MB ?? 64,
    /** Longest one PDF or page-image task may run; its worker is then replaced (422 ERR_PDF_TOO_COMPLEX). */
    task_timeout_ms: process.env.SIGNATURE_TASK_TIMEOUT_MS ?? 15_000,
    /** Heap of each PDF and page-image worker thread (422 ERR_PDF_TOO_COMPLEX past it). */
    worker_heap_mb: process.env.SIGNATURE_WORKER_HEAP_MB ?? 512,
    /** A PDF or page-image worker idle this long is stopped (50-90 MiB each); the next task starts one (~0.3 s). 0: never. */
    worker_idle_ms: process.env.SIGNATURE_WORKER_IDLE_MS ?? 30_000,
  },
  sessions: {
    /** How long a signing in progress holds its session request; after that a crashed one is taken over. */
    stale_claim_ms: process.env.SIGNATURE_SESSION_STALE_CLAIM_MS ?? 5 * 60_000,
    /** Completed sessions left unsealed (B-T) by a crash or a TSA down are sealed at boot and then this often; 0: at boot only. */
    seal_retry_every_ms: process.env.SIGNATURE_SEAL_RETRY_EVERY_MS ?? 10 * 60_000,
  },
  /** Abuse limits of uploaded documents and signers by e-mail (docs/signing-documents-api.md). */
  documents: {
    invitations_per_address_per_day: process.env.SIGNATURE_INVITATIONS_PER_ADDRESS_PER_DAY ?? 20,
    sessions_per_creator_per_hour: process.env.SIGNATURE_SESSIONS_PER_CREATOR_PER_HOUR ?? 30,
    codes_per_link_per_hour: process.env.SIGNATURE_CODES_PER_LINK_PER_HOUR ?? 5,
    codes_per_address_per_hour: process.env.SIGNATURE_CODES_PER_ADDRESS_PER_HOUR ?? 10,
  },
  storage: {
    /** Temporary files and signed files no row references are removed once older than this (a crash's leftovers; in-flight writes are younger). */
    grace_ms: process.env.SIGNATURE_STORAGE_GRACE_MS ?? 3_600_000,
    /** How often the signature disk is swept after the sweep at boot; 0: at boot only. */
    sweep_every_ms: process.env.SIGNATURE_STORAGE_SWEEP_EVERY_MS ?? 3_600_000,
  },
  outbox: {
    /** 'false': this instance writes e-mail and webhook rows but leaves sending to the others. */
    dispatch: process.env.SIGNATURE_OUTBOX_DISPATCH ?? true,
    /** How often due rows (retries, rows a crashed instance left) are looked for. */
    poll_ms: process.env.SIGNATURE_OUTBOX_POLL_MS ?? 5_000,
    /** After this a send in progress on a dead instance is taken over. */
    stale_claim_ms: process.env.SIGNATURE_OUTBOX_STALE_CLAIM_MS ?? 2 * 60_000,
    /** First retry delay; doubled each time, hourly at most, for up to a day. */
    retry_base_ms: process.env.SIGNATURE_OUTBOX_RETRY_BASE_MS ?? 10_000,
    /** Sent and given-up messages are kept this many days for the admin pages, then deleted; 0 keeps them. */
    retention_days: process.env.SIGNATURE_OUTBOX_RETENTION_DAYS ?? 90,
  },
  verify: {
    /** PEM files (comma-separated paths) whose certificates the verifier trusts besides the app's CA. */
    trust_anchors: process.env.TRUST_ANCHORS ?? '',
    /** 'true': ask OCSP responders and CRL URLs of trusted certificates when a document carries no revocation data. */
    online_revocation: process.env.SIGNATURE_VERIFY_ONLINE ?? false,
    /** Verifications per client address and minute (the verifier is public). */
    rate_per_minute: process.env.SIGNATURE_VERIFY_RATE_PER_MINUTE ?? 30,
    /** 'false': the verifier answers signed-in users only, and the public /verify page is not mounted. */
    public: process.env.SIGNATURE_VERIFY_PUBLIC ?? true,
    /** Worker threads that verify uploaded PDFs: their own, so verifying never delays signing. */
    workers: process.env.SIGNATURE_VERIFY_WORKERS ?? 1,
    /** Uploads waiting for a verify worker; more are refused (503 ERR_VERIFY_BUSY, Retry-After). */
    queue: process.env.SIGNATURE_VERIFY_QUEUE ?? 4,
    /** Revisions (incremental updates) an uploaded PDF may have (422 ERR_PDF_TOO_MANY_REVISIONS). */
    max_revisions: process.env.SIGNATURE_VERIFY_MAX_REVISIONS ?? 1_000,
    /** Objects an uploaded PDF may have (413 ERR_PDF_TOO_MANY_OBJECTS). */
    max_objects: process.env.SIGNATURE_VERIFY_MAX_OBJECTS ?? 100_000,
    /** Revisions x objects an uploaded PDF may have (422 ERR_PDF_TOO_COSTLY_TO_VERIFY). */
    max_revision_objects: process.env.SIGNATURE_VERIFY_MAX_REVISION_OBJECTS ?? 2_000_000,
  },
  timestamps: {
    /** 'off': signatures without a timestamp (PAdES B-B). On by default: each signature is timestamped and refused (503 ERR_TIMESTAMP_UNAVAILABLE) when no TSA answers. */
    enabled: process.env.SIGNATURE_TIMESTAMPS ?? true,
    /** RFC 3161 timestamp authorities, comma-separated, tried in order. None: the application's own TSA. */
    tsa_urls: process.env.SIGNATURE_TSA_URLS ?? '',
    /** Longest wait for one TSA's answer; the next one is tried after it. */
    tsa_timeout_ms: process.env.SIGNATURE_TSA_TIMEOUT_MS ?? 5_000,
    /** A TSA's answer larger than this is refused. */
    tsa_max_response_kb: process.env.SIGNATURE_TSA_MAX_RESPONSE_KB ?? 128,
    /** 'false': no anonymous timestamp authority at POST /pki/tsa (signing still timestamps in-process). */
    public_tsa: process.env.SIGNATURE_PUBLIC_TSA ?? true,
  },
  templates: {
    'daily-time-record': {
      // label omitted on purpose: it defaults to "Daily Time Record".
      view: 'pdf.daily-time-record',
      // A function: building a month of sample rows is deferred until a sample is rendered.
      sample_data: () => ({ record: sampleDailyTimeRecord() }),
      // The record itself is what the view needs at sign time (the default would be the same;
      // spelled out so the shape of the data is visible here).
      data_resolver: (record: unknown) => ({ record }),
      slots: [
        // US Letter landscape is 792 x 612 pt; signature lines sit near the bottom (y 60-120).
        { key: 'employee', label: 'Employee', required: true, page: 1, x: 72, y: 66, width: 240, height: 48, signatory: 'employeeId', role: 'employee', order: 1 },
        { supervisor: { label: 'Supervisor', required: true, page: 1, x: 480, y: 66, width: 240, height: 48, signatory: 'supervisorId', role: 'supervisor', order: 2 } },
      ],
    },
  },
}

/** Fixed data (no clock, no randomness): the sample must render to the same bytes every time. */
function sampleDailyTimeRecord() {
  const days = Array.from({ length: 10 }, (_, i) => {
    const day = String(i + 1).padStart(2, '0')
    return { date: `2026-03-${day}`, timeIn: '08:00', breakOut: '12:00', breakIn: '13:00', timeOut: '17:00', hours: 8 }
  })
  return {
    id: 'sample', employeeId: 'u-sample', employeeName: 'Sample Employee', supervisorId: 'u-sample-boss',
    supervisorName: 'Sample Supervisor', period: 'March 1-10, 2026', department: 'Operations', days,
  }
}
