import t from 'tap'
import { parseSignatureConfig } from '../../../plugins/signature/signature-config.ts'

t.test('defaults: disk "signature", designer at 144 DPI, the documented limits, session claims stale after 5 minutes, the outbox dispatching, the verifier offline with the app CA only, no templates, the abuse limits of sessions and sign links', async (t) => {
  t.same(parseSignatureConfig({}), {
    storage_disk: 'signature', designer: { dpi: 144 }, limits: { pdf_decoded_mb: 64, task_timeout_ms: 15_000, worker_heap_mb: 512, worker_idle_ms: 30_000 }, sessions: { stale_claim_ms: 300_000, seal_retry_every_ms: 600_000 },
    storage: { grace_ms: 3_600_000, sweep_every_ms: 3_600_000 },
    outbox: { dispatch: true, poll_ms: 5_000, stale_claim_ms: 120_000, retry_base_ms: 10_000, retention_days: 90 }, templates: {},
    verify: { trust_anchors: [], online_revocation: false, rate_per_minute: 30, public: true, workers: 1, queue: 4, max_revisions: 1_000, max_objects: 100_000, max_revision_objects: 2_000_000 },
    timestamps: { enabled: true, tsa_urls: [], tsa_timeout_ms: 5_000, tsa_max_response_kb: 128, public_tsa: true },
    documents: { invitations_per_address_per_day: 20, sessions_per_creator_per_hour: 30, codes_per_link_per_hour: 5, codes_per_address_per_hour: 10 },
  })
})

t.test('TRUST_ANCHORS is a comma-separated list of files; SIGNATURE_VERIFY_* arrive as strings; nonsense stops the boot', async (t) => {
  t.same(parseSignatureConfig({ verify: { trust_anchors: ' /etc/a.pem, /etc/b.pem ,', online_revocation: 'true', rate_per_minute: '5' } }).verify,
    { trust_anchors: ['/etc/a.pem', '/etc/b.pem'], online_revocation: true, rate_per_minute: 5, public: true, workers: 1, queue: 4, max_revisions: 1_000, max_objects: 100_000, max_revision_objects: 2_000_000 })
  t.throws(() => parseSignatureConfig({ verify: { online_revocation: 'yes' } }), /signature\.verify\.online_revocation/)
  t.throws(() => parseSignatureConfig({ verify: { rate_per_minute: 0 } }), /signature\.verify\.rate_per_minute/)
})

t.test('SIGNATURE_TIMESTAMPS and SIGNATURE_TSA_URLS arrive as strings: a comma-separated list of http(s) URLs, tried in order', async (t) => {
  const parsed = parseSignatureConfig({ timestamps: { enabled: 'on', tsa_urls: ' http://tsa.one.example/ts , https://tsa.two.example ', tsa_timeout_ms: '2500' } })
  t.same(parsed.timestamps, { enabled: true, tsa_urls: ['http://tsa.one.example/ts', 'https://tsa.two.example'], tsa_timeout_ms: 2500, tsa_max_response_kb: 128, public_tsa: true })
  t.equal(parseSignatureConfig({ timestamps: { enabled: 'off' } }).timestamps.enabled, false)
  t.same(parseSignatureConfig({ timestamps: { tsa_urls: '' } }).timestamps.tsa_urls, [])
  t.throws(() => parseSignatureConfig({ timestamps: { enabled: 'sometimes' } }), /signature\.timestamps\.enabled/)
  t.throws(() => parseSignatureConfig({ timestamps: { tsa_urls: 'ftp://tsa.example' } }), /signature\.timestamps\.tsa_urls/)
  t.throws(() => parseSignatureConfig({ timestamps: { tsa_urls: 'not a url' } }), /signature\.timestamps\.tsa_urls/)
  t.throws(() => parseSignatureConfig({ timestamps: { tsa_urls: 'https://user:secret@tsa.example' } }), /signature\.timestamps\.tsa_urls/, 'credentials would end up in messages')
})

t.test('SIGNATURE_OUTBOX_* arrive as strings; nonsense stops the boot', async (t) => {
  t.same(parseSignatureConfig({ outbox: { dispatch: 'false', poll_ms: '100', stale_claim_ms: '1000', retry_base_ms: '50', retention_days: '0' } }).outbox, { dispatch: false, poll_ms: 100, stale_claim_ms: 1000, retry_base_ms: 50, retention_days: 0 })
  t.throws(() => parseSignatureConfig({ outbox: { retention_days: 'forever' } }), /signature\.outbox\.retention_days/)
  t.throws(() => parseSignatureConfig({ outbox: { dispatch: 'maybe' } }), /signature\.outbox\.dispatch/)
  t.throws(() => parseSignatureConfig({ outbox: { poll_ms: 0 } }), /signature\.outbox\.poll_ms/)
})

t.test('limits arrive from the environment as strings; nonsense stops the boot', async (t) => {
  t.same(parseSignatureConfig({ limits: { pdf_decoded_mb: '8', task_timeout_ms: '3000' } }).limits, { pdf_decoded_mb: 8, task_timeout_ms: 3000, worker_heap_mb: 512, worker_idle_ms: 30_000 })
  t.throws(() => parseSignatureConfig({ limits: { task_timeout_ms: 'soon' } }), /signature\.limits\.task_timeout_ms/)
  t.throws(() => parseSignatureConfig({ limits: { pdf_decoded_mb: 0 } }), /signature\.limits\.pdf_decoded_mb/)
})

t.test('SIGNATURE_SESSION_STALE_CLAIM_MS arrives as a string and is coerced; nonsense stops the boot', async (t) => {
  t.equal(parseSignatureConfig({ sessions: { stale_claim_ms: '300' } }).sessions.stale_claim_ms, 300)
  t.throws(() => parseSignatureConfig({ sessions: { stale_claim_ms: 'soon' } }), /signature\.sessions\.stale_claim_ms/)
  t.throws(() => parseSignatureConfig({ sessions: { stale_claim_ms: 5 } }), /signature\.sessions\.stale_claim_ms/)
})

t.test('SIGNATURE_STORAGE_* arrive as strings; a grace period too short to protect a write in flight stops the boot', async (t) => {
  t.same(parseSignatureConfig({ storage: { grace_ms: '200', sweep_every_ms: '0' } }).storage, { grace_ms: 200, sweep_every_ms: 0 })
  t.throws(() => parseSignatureConfig({ storage: { grace_ms: 0 } }), /signature\.storage\.grace_ms/)
  t.throws(() => parseSignatureConfig({ storage: { sweep_every_ms: 'hourly' } }), /signature\.storage\.sweep_every_ms/)
})

t.test('SIGNATURE_DESIGNER_DPI arrives as a string and is coerced', async (t) => {
  t.equal(parseSignatureConfig({ designer: { dpi: '200' } }).designer.dpi, 200)
})

t.test('bad values stop the boot naming the field', async (t) => {
  t.throws(() => parseSignatureConfig({ designer: { dpi: 'sharp' } }), /signature\.designer\.dpi/)
  t.throws(() => parseSignatureConfig({ designer: { dpi: 10 } }), /signature\.designer\.dpi/)
  t.throws(() => parseSignatureConfig({ storage_disk: '../etc' }), /signature\.storage_disk/)
  t.throws(() => parseSignatureConfig({ templates: { x: 'pdf.x' as never } }), /signature\.templates\.x/)
  t.throws(() => parseSignatureConfig({ colour: 'red' } as never), /signature/)
})
