import type { EtaConfig } from 'eta'

type EtaPlugin = NonNullable<EtaConfig['plugins']>[number]

// What Eta 4 puts at the top of every compiled template: an include hands the included view a
// copy of the including view's whole `it` with the caller's data spread over it.
const MERGING_INCLUDE = 'let include = (__eta_t, __eta_d) => this.render(__eta_t, {...it, ...(__eta_d ?? {})}, options);'
// A component ('@name', loaded once at boot) is called straight from the store: Eta's render()
// would copy the options and look the name up through its file-or-name resolution on every call.
const EXPLICIT_INCLUDE = "let include = (__eta_t, __eta_d) => { const __eta_c = __eta_t.startsWith('@') ? this.templatesSync.get(__eta_t) : undefined; return __eta_c ? __eta_c.call(this, __eta_d ?? {}, options) : this.render(__eta_t, __eta_d ?? {}, options) };"

/**
 * An included view sees exactly the data its caller passes (`include('@icon', { name })`), as a
 * component's props, not the including view's data under it. Two reasons:
 * - nothing leaks in silently: with the merge, a key of the page (`ids`, `size`, `title`, ...)
 *   reached every component the page included that happened to read the same name, so a
 *   single-delete confirmation could have picked up a page's `ids` and become a bulk form;
 * - the copy was made on every include: 8 or so per People page, each spreading the page's whole
 *   data, were a fifth of the time spent rendering its body (44 -> 35 µs, measured in the running
 *   server at 2,000 req/s).
 * Eta offers no option for this, so the compiled function's text is rewritten; a version of Eta
 * that words the line differently stops the boot instead of silently keeping the merge.
 */
export const explicitInclude: EtaPlugin = {
  processFnString(fnString: string) {
    if (!fnString.includes(MERGING_INCLUDE)) throw new Error('explicitInclude: Eta no longer compiles include() as expected; see core/views/explicit-include.ts')
    return fnString.replace(MERGING_INCLUDE, EXPLICIT_INCLUDE)
  },
}
