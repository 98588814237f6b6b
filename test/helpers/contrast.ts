import type { Page } from 'playwright-core'

export interface Measured { selector: string; text: string; ratio: number; fg: string; bg: string }

/**
 * WCAG contrast ratios measured on the computed colours Chromium uses. The background is found by
 * walking up to the first opaque background (a gradient counts with its worst stop; translucent
 * layers are blended over what is behind them). Runs in the page.
 */
function inPage() {
  type RGBA = [number, number, number, number]
  const parse = (value: string): RGBA[] => [...value.matchAll(/rgba?\(([^)]+)\)/g)].map((m) => {
    const parts = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number)
    return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1]
  })
  const blend = (top: RGBA, under: RGBA): RGBA => [0, 1, 2].map((i) => top[i]! * top[3] + under[i]! * (1 - top[3])).concat(1) as RGBA
  const channel = (c: number) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4 }
  const luminance = (c: RGBA) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])
  const ratio = (a: RGBA, b: RGBA) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x! + 0.05) / (y! + 0.05) }
  /** The colours that may be behind `el` (several for a gradient). */
  const behind = (el: Element | null): RGBA[] => {
    if (!el) return [[255, 255, 255, 1]]
    const style = getComputedStyle(el)
    const stops = style.backgroundImage.includes('gradient') ? parse(style.backgroundImage) : []
    if (stops.length > 0) return stops.flatMap((stop) => stop[3] >= 1 ? [stop] : behind(el.parentElement).map((under) => blend(stop, under)))
    const [color] = parse(style.backgroundColor)
    if (color && color[3] >= 1) return [color]
    if (color && color[3] > 0) return behind(el.parentElement).map((under) => blend(color, under))
    return behind(el.parentElement)
  }
  const css = (c: RGBA) => `rgb(${c.slice(0, 3).map(Math.round).join(' ')})`
  return {
    text(el: Element) {
      const [fg] = parse(getComputedStyle(el).color)
      let worst = { ratio: Infinity, fg: '', bg: '' }
      for (const bg of behind(el)) {
        const shown = fg![3] >= 1 ? fg! : blend(fg!, bg)
        const r = ratio(shown, bg)
        if (r < worst.ratio) worst = { ratio: r, fg: css(shown), bg: css(bg) }
      }
      return worst
    },
    /** The focus indicator of the focused `el`: an outline (against what is around it) or a box-shadow ring. */
    ring(el: Element) {
      const style = getComputedStyle(el)
      let color: RGBA | undefined
      let width = 0
      let around: RGBA[]
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) {
        color = parse(style.outlineColor)[0]
        width = parseFloat(style.outlineWidth)
        around = parseFloat(style.outlineOffset) < 0 ? behind(el) : behind(el.parentElement)
      } else {
        const shadow = style.boxShadow
        // The widest ring of the box-shadow list: "rgb(..) 0px 0px 0px 3px".
        for (const part of shadow === 'none' ? [] : shadow.split(/,(?![^(]*\))/)) {
          const spread = Number(/(-?[\d.]+)px\s*(inset)?\s*$/.exec(part.trim())?.[1] ?? 0)
          if (spread > width) { width = spread; color = parse(part)[0] }
        }
        around = shadow.includes('inset') ? behind(el) : behind(el.parentElement)
      }
      if (!color) return { ratio: 0, width: 0, fg: 'none', bg: '' }
      let worst = { ratio: Infinity, width, fg: '', bg: '' }
      for (const bg of around) {
        const shown = color[3] >= 1 ? color : blend(color, bg)
        const r = ratio(shown, bg)
        if (r < worst.ratio) worst = { ratio: r, width, fg: css(shown), bg: css(bg) }
      }
      return worst
    },
  }
}

// tsx compiles with keepNames, whose __name helper does not exist in the page: defined there.
const SOURCE = `(() => { const __name = (f) => f; return (${inPage.toString()})() })()`

/** Text contrast of every element matching `selector` (its own text colour on what is behind it). */
export async function textContrast(page: Page, selector: string): Promise<Measured[]> {
  return page.locator(selector).evaluateAll((els, source) => {
    // eslint-disable-next-line no-eval
    const measure = (0, eval)(source)
    return els.map((el) => ({ selector: el.tagName.toLowerCase() + (el.className ? `.${String(el.className).trim().split(/\s+/).join('.')}` : ''), text: (el.textContent ?? '').trim().slice(0, 40), ...measure.text(el) }))
  }, SOURCE)
}

/** The focus ring of the element that has the focus now. */
export async function focusRing(page: Page): Promise<{ ratio: number; width: number; fg: string; bg: string; text: string }> {
  return page.evaluate((source) => {
    const measure = (0, eval)(source)
    const el = document.activeElement!
    return { text: (el.textContent ?? '').trim().slice(0, 40), ...measure.ring(el) }
  }, SOURCE)
}
