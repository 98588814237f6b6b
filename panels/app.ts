import { Panel, type PanelPlugin } from '../core/index.ts'

/**
 * The panel at /app for every signed-in user. The host adds the signature plugin's pages for end
 * users here (signer, "My signatures", the inbox of signing sessions).
 */
export function appPanel(options: { plugins?: PanelPlugin[] } = {}) {
  return Panel.make()
    .id('app')
    .path('app')
    .label('My workspace')
    .access('signed-in')
    .plugins(options.plugins ?? [])
}
