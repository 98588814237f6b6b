const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const SPECIAL = /[&<>"']/g

/**
 * What `<%= %>` prints: the value as text, with the five characters that could end an attribute
 * or open a tag written as entities (Eta's own set). Most values on a page need none, and for the
 * short strings a page prints, a scan of char codes finds that out sooner than a RegExp call.
 */
export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value)
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // & " ' < > are 38, 34, 39, 60, 62: one comparison rules out everything above '>'.
    if (code <= 62 && (code === 38 || code === 60 || code === 62 || code === 34 || code === 39)) {
      return text.replace(SPECIAL, (char) => ENTITIES[char]!)
    }
  }
  return text
}
