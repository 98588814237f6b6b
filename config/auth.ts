import type { AccessConfigInput } from '../core/access/index.ts'

// Launcher codes: ALERTS, INBOX and SEARCH are named by the specification;
// PEOPLE, ORDERS and REPORTS are ours.
export const access = {
  roles: {
    staff: ['users:read', 'ORDERS'],
    manager: ['users:*', 'PEOPLE', 'REPORTS', 'signing-sessions:create', 'signing-sessions:read-any', 'documents:create', 'signature-templates:create', 'signature-templates:delete'],
    // admin gets users:* from manager through the hierarchy (and not manager's deny).
    admin: ['ALERTS', 'INBOX', 'SEARCH', 'signature-templates:*', 'signatures:*', 'signing-sessions:*', 'webhooks:manage', 'signature-outbox:read'],
  },
  hierarchy: {
    admin: ['manager'],
    manager: ['staff'],
  },
  deny: {
    manager: ['users:delete'],
  },
  adminRoles: ['admin'],
} satisfies AccessConfigInput

export const auth = {
  /** Absolute lifetime of a session cookie. */
  sessionTtlSeconds: 8 * 60 * 60,
  cookieName: 'sid',
  throttle: {
    windowSeconds: 15 * 60,
    maxFailuresPerEmail: 5,
    maxFailuresPerClient: 20,
  },
}
