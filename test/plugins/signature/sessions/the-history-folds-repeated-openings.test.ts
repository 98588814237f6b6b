// Issue 39 item 10: every load of the signer page records an 'opened' event (the audit trail keeps
// them all), and the session page listed each one: a signer who reloaded showed seven "opened the
// document" rows. The history now shows the first opening, then "opened it again ×N"; the raw
// events stay in the API and one click away on the page ("Details").
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'
import { historyLines } from '../../../../plugins/signature/sessions/session-history.ts'

t.setTimeout(120_000)

/** The history's lines (data-event, data-again) and their words, in order. */
function timeline(html: string): Array<{ event: string; again: string | null; text: string }> {
  const list = /<ol class="timeline" data-timeline>([\s\S]*?)<\/ol>/.exec(html)![1]!
  return [...list.matchAll(/<li class="timeline-item" data-event="([^"]+)"(?: data-again="(\d+)")?>([\s\S]*?)<\/li>/g)]
    .map((m) => ({ event: m[1]!, again: m[2] ?? null, text: m[3]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim() }))
}

t.test('seven openings of the signer page read as one opening and "opened it again ×6"', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const created = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'parallel' } })).json().data
  const request = created.requests.find((r: { slot: string }) => r.slot === 'employee')
  for (let i = 0; i < 7; i++) t.equal((await getPage(app, request.signerUrl, staff)).statusCode, 200, `opening ${i + 1}`)

  const detail = (await app.inject({ url: `/api/signing-sessions/${created.id}`, headers: { cookie: admin } })).json().data
  t.equal(detail.events.filter((e: { event: string }) => e.event === 'opened').length, 7, 'the audit trail keeps every opening')

  const page = await getPage(app, `/app/sessions/${created.id}`, admin)
  const lines = timeline(page.body)
  t.same(lines.map((l) => [l.event, l.again]), [['created', null], ['opened', null], ['opened', '6']], 'created, opened, opened again ×6')
  t.match(lines[1]!.text, /Sam Staff opened the document as Employee$/)
  t.match(lines[2]!.text, /Sam Staff opened it again &#215;6 \(Employee\), last on /)
  t.equal((page.body.match(/data-audit-event="opened"/g) ?? []).length, 7, 'the details list each recorded event')
  t.match(page.body, /<details class="audit-trail" data-audit-trail>\s*<summary>Details: every recorded event \(8\)<\/summary>/)
})

t.test('a fold ends when the request does something else; other people fold apart', async (t) => {
  const at = (m: number) => `2026-11-27T10:${String(m).padStart(2, '0')}:00.000Z`
  const e = (event: string, actor: string | null, requestId: string | null, m: number) => ({ event, actor, requestId, at: at(m), address: null, sha256Before: null, sha256After: null, detail: event === 'signed' ? 'signature 1234; certificate CN=Sam' : null })
  const lines = historyLines([
    e('created', 'u-admin', null, 0),
    e('opened', 'u-staff', 'r1', 1), e('opened', 'u-manager', 'r2', 2), e('opened', 'u-staff', 'r1', 3), e('reminded', 'u-admin', null, 4),
    e('opened', 'u-staff', 'r1', 5), e('opened', 'u-manager', 'r2', 6), e('signed', 'u-staff', 'r1', 7), e('opened', 'u-staff', 'r1', 8),
  ])
  t.same(lines.map((l) => [l.event, l.actor, l.again, l.count, l.lastAt.slice(14, 16)]), [
    ['created', 'u-admin', false, 1, '00'],
    ['opened', 'u-staff', false, 1, '01'],
    ['opened', 'u-manager', false, 1, '02'],
    ['opened', 'u-staff', true, 2, '05'],
    ['reminded', 'u-admin', false, 1, '04'],
    ['opened', 'u-manager', true, 1, '06'],
    ['signed', 'u-staff', false, 1, '07'],
    ['opened', 'u-staff', true, 1, '08'],
  ], 'a reminder between openings does not split the fold; a signature does')
  t.equal(lines[6]!.detail, null, 'the signature\'s uuid and certificate name stay in the audit trail')
})
