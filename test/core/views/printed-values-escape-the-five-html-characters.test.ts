import { Eta } from 'eta'
import fc from 'fast-check'
import t from 'tap'
import { escapeHtml } from '../../../core/views/escape-html.ts'

// What every `<%= %>` goes through. It replaced Eta's own escape for speed, so it must print
// exactly what Eta's would: the same five characters, the same entities, other values as text.
const etaEscape = new Eta().config.escapeFunction

t.test('each of & < > " \' becomes its entity, wherever it stands', async (t) => {
  t.equal(escapeHtml('&'), '&amp;')
  t.equal(escapeHtml('<script>alert(1)</script>'), '&lt;script&gt;alert(1)&lt;/script&gt;')
  t.equal(escapeHtml('x" onmouseover="alert(1)'), 'x&quot; onmouseover=&quot;alert(1)')
  t.equal(escapeHtml("O'Brien"), 'O&#39;Brien')
  t.equal(escapeHtml('a > b'), 'a &gt; b')
  t.equal(escapeHtml('plain ünïcode ✓ text'), 'plain ünïcode ✓ text', 'anything else is left alone')
  t.equal(escapeHtml(''), '')
})

t.test('values that are not strings print as their text', async (t) => {
  t.equal(escapeHtml(16), '16')
  t.equal(escapeHtml(null), 'null')
  t.equal(escapeHtml(undefined), 'undefined')
  t.equal(escapeHtml({ toString: () => '<b>' }), '&lt;b&gt;')
})

t.test('it prints what Eta\'s own escape prints, for any string', async () => {
  fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', '&', '<', '>', '"', "'", '=', ' ', 'é', '\u2028', ';') }), (text) => escapeHtml(text) === etaEscape(text)), { numRuns: 2000 })
  fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => escapeHtml(text) === etaEscape(text)), { numRuns: 2000 })
})
