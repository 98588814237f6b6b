// Two kinds of grant share one list:
//   "<resource>:<action>"  e.g. users:read, users:*  (the action may be the wildcard)
//   "CODE"                 a launcher module code, e.g. ALERTS, INBOX, SEARCH
// and "*" grants everything. Deny entries use the same grammar.

const RESOURCE_PERMISSION = /^[a-z][a-z0-9-]*:(\*|[a-z][a-z0-9-]*)$/
const MODULE_CODE = /^[A-Z][A-Z0-9_]*$/

export function isValidGrant(value: string): boolean {
  return value === '*' || RESOURCE_PERMISSION.test(value) || MODULE_CODE.test(value)
}

/** A permission asked about is always concrete: no wildcard. */
export function isValidPermission(value: string): boolean {
  return (RESOURCE_PERMISSION.test(value) && !value.endsWith(':*')) || MODULE_CODE.test(value)
}

/** Does one grant (or deny) rule cover a concrete permission? */
export function ruleCovers(rule: string, permission: string): boolean {
  if (rule === '*' || rule === permission) return true
  if (!rule.endsWith(':*')) return false
  const colon = permission.indexOf(':')
  return colon > 0 && permission.slice(0, colon + 1) === rule.slice(0, -1)
}
