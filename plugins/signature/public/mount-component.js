// Alpine (loaded by the layout with `defer`) usually starts before a page's module runs, so a
// component's markup is inserted from a <template> after registering it: Alpine initialises markup
// added later through its mutation observer, and nothing depends on script order.

/**
 * Registers `name` with the data `data(root)` makes, then puts the <template id=template>'s markup
 * into the element `root` selects, in place of its `loading` placeholder. Nothing when the page
 * has no such element.
 */
export function mountComponent ({ root: rootSelector, template: templateId, loading, name, data }) {
  const mount = () => {
    const root = document.querySelector(rootSelector)
    const template = document.getElementById(templateId)
    if (!root || !template) return
    window.Alpine.data(name, data(root))
    root.querySelector(loading)?.remove()
    root.append(template.content.cloneNode(true))
  }
  if (window.Alpine) mount()
  else document.addEventListener('alpine:init', mount, { once: true })
}
