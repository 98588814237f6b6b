import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { chromium, type Browser, type Page } from 'playwright-core'
import { PROJECT_ROOT } from '../../config/app.ts'
import { buildApp } from '../../host-app/app.ts'
import { seriousAxeViolations } from './axe.ts'
import { isolatedEnv } from './test-env.ts'

export const SCREENSHOTS = path.join(PROJECT_ROOT, 'artifacts', 'screenshots')

interface TapLike { teardown(fn: () => unknown): void }

/**
 * The real application on an ephemeral port, and one Debian chromium for the whole file.
 * `beforeListen` may register templates on the app; the app is returned for requests the test
 * makes itself (app.inject) around what the browser does.
 */
export async function startBrowserSession(t: TapLike, options: { beforeListen?: (app: FastifyInstance) => unknown } = {}): Promise<{ baseUrl: string; browser: Browser; app: FastifyInstance }> {
  const { env, cleanup } = await isolatedEnv()
  const app = await buildApp({ env })
  await options.beforeListen?.(app)
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  // A browser that fails to start must not leave the server listening: the file would hang until
  // tap's timeout instead of failing with the launch error.
  const browser = await launchChromium().catch(async (error: unknown) => {
    await app.close()
    await cleanup()
    throw error
  })
  t.teardown(async () => {
    await browser.close()
    await app.close()
    await cleanup()
  })
  return { baseUrl: address, browser, app }
}

/** Debian's chromium, headless, as every browser test runs it; the screenshot folder made. */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  await mkdir(SCREENSHOTS, { recursive: true })
  return browser
}

/** A fresh context (own cookies), signed in through the login page like a person would. */
export async function signedInPage(browser: Browser, baseUrl: string, email: string, options: { bypassCSP?: boolean } = {}): Promise<Page> {
  // bypassCSP: only for the accessibility pass, which injects axe-core (our CSP allows no inline script).
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 860 }, bypassCSP: options.bypassCSP ?? false })
  const page = await context.newPage()
  // Any script error on our pages fails the test that reads this list.
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  // Chromium logs every non-2xx response as a console error; those the test causes on purpose
  // (422 for invalid fields, 404 pages) are not script errors.
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of (404|422)/.test(message.text())) errors.push(message.text())
  })
  ;(page as Page & { errors: string[] }).errors = errors
  // What the CSP refused (an eval, an inline script or style, a foreign URL) is an error too: the
  // page's own event, reported before any of its scripts runs.
  await context.exposeBinding('reportCspViolation', (_source, text: string) => errors.push(text))
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : ''
      ;(window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(`CSP ${event.effectiveDirective} refused ${event.blockedURI || 'inline'}${where} ${event.sample}`.trim())
    })
  })
  await page.goto('/login')
  await page.getByLabel('E-mail address').fill(email)
  await page.getByLabel('Password').fill('password')
  // Wherever the host lands a signed-in user (the demo: /dashboard; a host with one panel: that panel).
  await Promise.all([page.waitForURL((url) => url.pathname !== '/login'), page.getByRole('button', { name: 'Sign in' }).click()])
  return page
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
interface TapAssert { same(...args: any[]): unknown; ok(...args: any[]): unknown }

/** What every page a browser test looks at must pass: axe finds nothing serious, nothing scrolls sideways; a screenshot to look at. */
export async function passes(t: TapAssert, page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle')
  t.same(await seriousAxeViolations(page), [], `${name}: axe`)
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  t.ok(width <= page.viewportSize()!.width, `${name}: no horizontal scroll (${width})`)
  // From the top: a full-page capture draws sticky parts (the top bar, the field palette) where the
  // last scroll left them, which showed as a blank band and a bar across the middle of the page.
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true })
}

export function pageErrors(page: Page): string[] {
  return (page as Page & { errors?: string[] }).errors ?? []
}

/**
 * After Finish on the signer page: waits until the page shows the signed document's page image
 * (loaded, not broken) and answers its URL, e.g. /api/signatures/<uuid>/pages/2.
 */
export async function signedPageShown(page: Page): Promise<string> {
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('img.signer-page')
    return !!img && img.getAttribute('src')!.startsWith('/api/signatures/') && img.complete && img.naturalWidth > 0
  })
  return (await page.locator('img.signer-page').getAttribute('src'))!
}
