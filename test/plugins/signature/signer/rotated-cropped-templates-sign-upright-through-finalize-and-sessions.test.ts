// Issue 17 over HTTP in the real app: a template whose PDF has every page geometry (rotation,
// CropBox off the origin, UserUnit 2, mixed sizes). The signer page's meta and images show each
// page as displayed; the signer's finalize and a two-signer session (placements saved in the
// designer) put each stamp in its box, upright, as poppler's pdftoppm -cropbox shows it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { SlotDefinition } from '../../../../plugins/signature/contracts/slot-definition.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor } from '../../../helpers/pages.ts'
import { mupdfChangeHistory, pdfsig, pngSize, qpdfCheck, quadrantInk, renderAsViewer } from '../../../fixtures/pdf/checkers.ts'
import { makeGeometryPdf, topLeftBox, type GeometryPage } from '../../../fixtures/pdf/geometry-pdf.ts'
import { makeCornerStampPng } from '../../../fixtures/pdf/stamp-image.ts'

t.setTimeout(300_000)

const TEMPLATE = 'daily-time-record'

async function person(app: FastifyInstance, email: string) {
  const cookie = await login(app, email)
  const csrf = await csrfFor(app, cookie)
  const image = `data:image/png;base64,${makeCornerStampPng().toString('base64')}`
  const created = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie, 'x-csrf-token': csrf }, payload: { label: 'Corner', image, certificate: { mode: 'issue' } } })
  if (created.statusCode !== 201) throw new Error(created.body)
  return { cookie, csrf, signature: created.json().data.uuid as string }
}

async function checkStamped(t: Test, bytes: Uint8Array, boxes: Array<{ page: GeometryPage; box: ReturnType<typeof topLeftBox> }>, signatures: number) {
  const verdict = await pdfsig(bytes)
  t.equal(verdict.signatures.filter((s) => s.valid).length, signatures, `pdfsig: ${signatures} valid (${verdict.signatures.map((s) => s.validation).join('; ')})`)
  t.ok((await qpdfCheck(bytes)).clean, 'qpdf --check')
  t.equal((await mupdfChangeHistory(bytes)).verdict, 0, 'mupdf: no forbidden change')
  for (const { page, box } of boxes) {
    const [topLeft, ...rest] = await quadrantInk(await renderAsViewer(bytes, page.page, 144), page, box)
    t.ok(topLeft! > 0.5 && rest.every((ink) => ink < 0.02), `${page.name}: in its box, upright (ink by quadrant ${[topLeft, ...rest].map((n) => n!.toFixed(2)).join(' ')})`)
  }
}

t.test('signer page and sessions on rotated, cropped, UserUnit and mixed-size pages', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'geometry-template-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const { bytes, pages } = await makeGeometryPdf()
  const file = path.join(dir, 'geometry.pdf')
  await writeFile(file, bytes)
  const app = await buildTestApp(t)
  // Replaces the host's template of this key (the registry is keyed by template key), so the
  // host's records of it are signed on this document.
  app.signature.registry.register({
    key: () => TEMPLATE,
    label: () => 'Geometry',
    slots: () => [
      new SlotDefinition({ key: 'employee', label: 'Employee', defaultPage: 1, defaultX: 30, defaultY: 30, defaultWidth: 150, defaultHeight: 60, required: true, signatory: 'employeeId', order: 1 }),
      new SlotDefinition({ key: 'supervisor', label: 'Supervisor', defaultPage: 1, defaultX: 300, defaultY: 30, defaultWidth: 150, defaultHeight: 60, required: true, signatory: 'supervisorId', order: 2 }),
    ],
    renderSample: async () => file,
    renderFor: async () => file,
  })
  const staff = await person(app, DEMO.staff.email)
  const manager = await person(app, DEMO.manager.email)
  const admin = await person(app, DEMO.admin.email)
  const named = (name: string) => pages.find((p) => p.name === name)!

  t.test('meta and page images: every page as displayed', async (t) => {
    const meta = await app.inject({ url: `/app/signature-templates/${TEMPLATE}/signer/meta?${new URLSearchParams({ signature: staff.signature, signable: 'dtr-staff-2026-02' })}`, headers: { cookie: staff.cookie, accept: 'application/json' } })
    t.equal(meta.statusCode, 200, meta.body.slice(0, 200))
    t.same(meta.json().data.pages, pages.map(({ page, width, height }) => ({ page, width, height })))
    const dpi = app.signature.pageImages.dpi
    for (const page of [named('rotate 90, crop offset, UserUnit 2'), named('A4 portrait'), named('US Letter landscape')]) {
      const image = await app.inject({ url: `/app/signature-templates/${TEMPLATE}/signer/pages/${page.page}?signable=dtr-staff-2026-02`, headers: { cookie: staff.cookie, accept: 'application/json' } })
      t.equal(image.statusCode, 200, page.name)
      t.same(pngSize(image.rawPayload), { width: Math.round(page.width * dpi / 72), height: Math.round(page.height * dpi / 72) }, `${page.name}: image size`)
    }
  })

  t.test('finalize: each signer places their slot on another page geometry', async (t) => {
    const cases = [
      { who: staff, record: 'dtr-staff-2026-02', slot: 'employee', page: named('rotate 90, crop offset, UserUnit 2') },
      { who: manager, record: 'dtr-staff-2026-02', slot: 'supervisor', page: named('rotate 270, crop offset, UserUnit 1') },
      { who: manager, record: 'dtr-manager-2026-02', slot: 'employee', page: named('rotate 180, crop offset, UserUnit 2') },
      { who: admin, record: 'dtr-manager-2026-02', slot: 'supervisor', page: named('US Letter landscape') },
      { who: admin, record: 'dtr-admin-2026-02', slot: 'employee', page: named('rotate 0, crop offset, UserUnit 2') },
      { who: manager, record: 'dtr-admin-2026-02', slot: 'supervisor', page: named('A4 portrait') },
    ]
    const finalize = (who: typeof staff, record: string, placement: object) => app.inject({
      method: 'POST', url: `/app/signature-templates/${TEMPLATE}/signer/finalize`,
      headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, accept: 'application/json' },
      payload: { signature: who.signature, signable: record, placements: [placement] },
    })
    const first = cases[0]!
    const off = await finalize(first.who, first.record, { slot: first.slot, ...topLeftBox(first.page), y: first.page.height - 20 })
    t.equal(off.statusCode, 422, 'past the displayed top edge')
    t.equal(off.json().code, 'ERR_PLACEMENT_OFF_PAGE')
    for (const { who, record, slot, page } of cases) {
      const box = topLeftBox(page)
      const answer = await finalize(who, record, { slot, ...box })
      t.equal(answer.statusCode, 200, `${record} ${slot}: ${answer.body.slice(0, 200)}`)
      const signed = await app.inject({ url: answer.json().data.download_url, headers: { cookie: who.cookie } })
      await checkStamped(t, signed.rawPayload, [{ page, box }], 1)
    }
  })

  t.test('a session: slots placed in the designer on turned and cropped pages, signed by two people', async (t) => {
    const adminCsrf = admin.csrf
    const employee = { page: named('rotate 90, crop origin, UserUnit 1'), box: topLeftBox(named('rotate 90, crop origin, UserUnit 1')) }
    const supervisor = { page: named('rotate 270, crop offset, UserUnit 2'), box: topLeftBox(named('rotate 270, crop offset, UserUnit 2')) }
    for (const [slot, { box }] of [['employee', employee], ['supervisor', supervisor]] as const) {
      const saved = await app.inject({ method: 'POST', url: `/admin/signature-templates/${TEMPLATE}/design/slots/${slot}`, headers: { cookie: admin.cookie, 'x-csrf-token': adminCsrf, accept: 'application/json' }, payload: box })
      t.equal(saved.statusCode, 200, `${slot}: ${saved.body.slice(0, 200)}`)
    }
    const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie }, payload: { template: TEMPLATE, signable: 'dtr-staff-2026-03', mode: 'sequential' } })
    t.equal(created.statusCode, 201, created.body.slice(0, 300))
    const session = created.json().data
    let last = ''
    for (const [who, request] of [[staff, session.requests[0]], [manager, session.requests[1]]] as const) {
      const answer = await app.inject({
        method: 'POST', url: `/app/signature-templates/${TEMPLATE}/signer/finalize`,
        headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, accept: 'application/json' },
        payload: { signature: who.signature, request: request.id, placements: [] },
      })
      t.equal(answer.statusCode, 200, answer.body.slice(0, 300))
      last = answer.json().data.download_url
    }
    const signed = await app.inject({ url: last, headers: { cookie: manager.cookie } })
    await checkStamped(t, signed.rawPayload, [employee, supervisor], 3)
  })

  t.test('a slot default past the displayed edge: the session is refused with the one code, nothing written', async (t) => {
    const turned = named('rotate 90, crop origin, UserUnit 1') // shown 760 x 560; its MediaBox is 612 x 792
    app.signature.registry.register({
      key: () => TEMPLATE,
      label: () => 'Geometry',
      slots: () => [
        new SlotDefinition({ key: 'employee', label: 'Employee', defaultPage: 1, defaultX: 30, defaultY: 30, defaultWidth: 150, defaultHeight: 60, required: true, signatory: 'employeeId', order: 1 }),
        // On the MediaBox (y 600 + 60 < 792) but past the top of the page as shown (560).
        new SlotDefinition({ key: 'countersign', label: 'Countersign', defaultPage: turned.page, defaultX: 30, defaultY: 600, defaultWidth: 150, defaultHeight: 60, required: true, signatory: 'supervisorId', order: 2 }),
      ],
      renderSample: async () => file,
      renderFor: async () => file,
    })
    const refused = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie }, payload: { template: TEMPLATE, signable: 'dtr-manager-2026-03' } })
    t.equal(refused.statusCode, 422, refused.body.slice(0, 300))
    t.equal(refused.json().code, 'ERR_PLACEMENT_OFF_PAGE')
    const mine = await app.inject({ url: '/api/signing-sessions?mine=1', headers: { cookie: manager.cookie } })
    t.same(mine.json().data.filter((s: { signable?: { id: string } }) => s.signable?.id === 'dtr-manager-2026-03'), [], 'no session was written')
  })
})
