import axe from 'axe-core'
import type { Page } from 'playwright-core'

export interface AxeViolation { id: string; impact: string | null; help: string; targets: string[] }

/**
 * Runs axe-core (WCAG 2.x A and AA rules, plus best practices) on the page as it is now, and
 * answers its serious and critical violations. The page's context must bypass the CSP.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axe.source })
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } })
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }))
  })
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
