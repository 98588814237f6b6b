import { Panel } from '../core/panel/panel.ts'
import type { PanelPlugin } from '../core/panel/panel-plugin.ts'
import { MySignaturesPlugin } from '../plugins/signature/signer/my-signatures-plugin.ts'
import { SigningSessionsInbox } from '../plugins/signature/sessions/inbox-plugin.ts'

/** The panel at /app for every signed-in user: the signer page and "My signatures" mount here. */
export function appPanel(options: { plugins?: PanelPlugin[] } = {}) {
  return Panel.make()
    .id('app')
    .path('app')
    .label('My workspace')
    .access('signed-in')
    .plugins(options.plugins ?? [])
    // "My signatures": the user's own signatures and the records they can sign.
    .plugin(MySignaturesPlugin.make())
    // The inbox of signing sessions: what waits for the user's signature, with links to the signer page.
    .plugin(SigningSessionsInbox.make())
}
