import { accessSync, constants } from 'node:fs'

// Where Debian, Ubuntu, Fedora, snap and Google put the browser.
export const USUAL_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
  '/usr/lib/chromium/chromium',
]

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The Chromium to drive, or null. CHROMIUM_PATH, when set, is the only candidate: an explicit
 * setting that points nowhere should show as "unavailable", not silently pick another browser.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CHROMIUM_PATH) return isExecutable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null
  return USUAL_CHROMIUM_PATHS.find(isExecutable) ?? null
}
