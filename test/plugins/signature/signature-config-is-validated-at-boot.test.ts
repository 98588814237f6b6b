import t from 'tap'
import { parseSignatureConfig } from '../../../plugins/signature/signature-config.ts'

t.test('defaults: disk "signature", designer at 144 DPI, session claims stale after 5 minutes, no templates', async (t) => {
  t.same(parseSignatureConfig({}), { storage_disk: 'signature', designer: { dpi: 144 }, sessions: { stale_claim_ms: 300_000 }, templates: {} })
})

t.test('SIGNATURE_SESSION_STALE_CLAIM_MS arrives as a string and is coerced; nonsense stops the boot', async (t) => {
  t.equal(parseSignatureConfig({ sessions: { stale_claim_ms: '300' } }).sessions.stale_claim_ms, 300)
  t.throws(() => parseSignatureConfig({ sessions: { stale_claim_ms: 'soon' } }), /signature\.sessions\.stale_claim_ms/)
  t.throws(() => parseSignatureConfig({ sessions: { stale_claim_ms: 5 } }), /signature\.sessions\.stale_claim_ms/)
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
