// Shared steps of the signing tests: a signed-in user with a library signature, and the signer's calls.
import type { FastifyInstance } from 'fastify'
import { csrfFor, } from '../../../helpers/pages.ts'
import { login } from '../../../helpers/app.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'

export const STAMP_PNG = makeStampPng()
export const STAMP_DATA_URL = `data:image/png;base64,${STAMP_PNG.toString('base64')}`

export interface Signer {
  cookie: string
  csrf: string
  signature: string
}

/** Signs in and creates a library signature with a certificate from the app's CA. */
export async function signerWithSignature(app: FastifyInstance, email: string, label = 'My signature'): Promise<Signer> {
  const cookie = await login(app, email)
  const created = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label, image: STAMP_DATA_URL, certificate: { mode: 'issue' } } })
  if (created.statusCode !== 201) throw new Error(`creating a signature failed: ${created.statusCode} ${created.body}`)
  return { cookie, csrf: await csrfFor(app, cookie), signature: created.json().data.uuid }
}

export function finalize(app: FastifyInstance, signer: Signer, templateKey: string, body: object, panel = 'app') {
  return app.inject({
    method: 'POST',
    url: `/${panel}/signature-templates/${templateKey}/signer/finalize`,
    headers: { cookie: signer.cookie, 'x-csrf-token': signer.csrf, accept: 'application/json' },
    payload: body,
  })
}

export function meta(app: FastifyInstance, signer: Signer, templateKey: string, query: Record<string, string>, panel = 'app') {
  return app.inject({
    url: `/${panel}/signature-templates/${templateKey}/signer/meta?${new URLSearchParams(query)}`,
    headers: { cookie: signer.cookie, accept: 'application/json' },
  })
}

/** The employee slot of the daily time record, where config/signature.ts places it. */
export const EMPLOYEE_BOX = { slot: 'employee', page: 1, x: 72, y: 66, width: 240, height: 48 }
export const SUPERVISOR_BOX = { slot: 'supervisor', page: 1, x: 480, y: 66, width: 240, height: 48 }
