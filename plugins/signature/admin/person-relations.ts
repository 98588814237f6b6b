import type { FastifyInstance } from 'fastify'
import type { PanelContext } from '../../../core/panel/panel-plugin.ts'
import type { RelationList } from '../../../core/resource/define-resource.ts'
import { READ_ANY_SIGNATURE, SESSION_PERMISSION } from '../permissions.ts'

/** How many of a person's signatures or sessions their page lists: the latest ones. */
const LATEST = 20

/**
 * A person's signatures and signing sessions on their page of the host's people resource
 * (Filament's relation managers): contributed from register(), read when the page is shown from
 * the app-wide signature database (known once the panel boots). Each list is for those who may
 * read everyone's signatures or sessions.
 */
export function personRelationLists(panel: PanelContext, peopleSlug: string, app: () => FastifyInstance): void {
  const db = () => app().signature.database.db
  const signatures: RelationList<{ id: string }> = {
    key: 'signatures', label: 'Signatures', permission: READ_ANY_SIGNATURE,
    columns: [{ key: 'title', label: 'Document' }, { key: 'label', label: 'Signature' }, { key: 'signed_at', label: 'Signed', type: 'datetime' }],
    rows: async (_actor, person) => (await db().selectFrom('digital_signatures')
      .select(['signable_type', 'signable_id', 'label', 'signed_at'])
      .where('user_id', '=', person.id).where('signed_at', 'is not', null)
      .orderBy('signed_at', 'desc').limit(LATEST).execute())
      .map((row) => ({ ...row, title: `${row.signable_type ?? ''} ${row.signable_id ?? ''}`.trim() })),
    empty: 'No signed documents yet',
  }
  const sessions: RelationList<{ id: string }> = {
    key: 'signing-sessions', label: 'Signing sessions', permission: SESSION_PERMISSION.readAny,
    columns: [{ key: 'signable_title', label: 'Document' }, { key: 'session_status', label: 'Session' }, { key: 'request_status', label: 'Their part' }, { key: 'created_at', label: 'Started', type: 'datetime' }],
    rows: async (_actor, person) => db().selectFrom('signing_session_requests as r')
      .innerJoin('signing_sessions as s', 's.id', 'r.session_id')
      .select(['s.signable_title', 's.status as session_status', 'r.status as request_status', 's.created_at'])
      .where('r.signer_user_id', '=', person.id)
      .orderBy('s.created_at', 'desc').limit(LATEST).execute(),
    empty: 'Not a signer in any session',
  }
  panel.relationList(peopleSlug, signatures)
  panel.relationList(peopleSlug, sessions)
}
