import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

const PUBLIC_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'public')

/** Where a panel serves the plugin's browser files (designer.js, coordinates.js, CSS). */
export const SIGNATURE_ASSETS = '/signature-assets/'

/**
 * plugins/signature/public/ under the panel's prefix (`/<panel>/signature-assets/...`): inside the
 * panel, so only people who may enter it load them, and coordinates.js is the very file the
 * server's tests import. Called once per panel from SignaturePlugin.boot.
 */
export async function mountSignatureAssets(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, { root: PUBLIC_DIR, prefix: SIGNATURE_ASSETS, decorateReply: false, index: false, wildcard: true })
}

export function signatureAssetsUrl(panelPath: string): string {
  return `/${panelPath}${SIGNATURE_ASSETS}`
}
