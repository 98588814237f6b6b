import { defineModules } from '../core/index.ts'

// The launcher's modules. Each appears only for roles granted its code (config/auth.ts).
// ALERTS, INBOX and SEARCH are the specification's codes; PEOPLE, ORDERS and REPORTS are ours.
// Icons are plain glyphs every system font has (no emoji font on a bare Debian).
// Only People has pages so far: the other links answer the 404 page until their module exists.
export const modules = defineModules([
  { code: 'PEOPLE', label: 'People', href: '/admin/users', placement: 'tile', size: 'wide', icon: 'users', description: 'Accounts, roles and access' },
  { code: 'ALERTS', label: 'Alerts', href: '/alerts', placement: 'tile', highlighted: true, icon: 'alert-triangle', description: 'What needs attention now' },
  { code: 'ORDERS', label: 'Orders', href: '/orders', placement: 'tile', icon: 'list', description: 'Open and recent orders' },
  { code: 'REPORTS', label: 'Reports', href: '/reports', placement: 'tile', icon: 'chart', description: 'Shift and period figures' },
  { code: 'INBOX', label: 'Inbox', href: '/inbox', placement: 'dock', icon: 'mail' },
  { code: 'SEARCH', label: 'Lookup', href: '/lookup', placement: 'dock', icon: 'search' },
])
