/**
 * A lower-case UUID as randomUUID() writes them: ids from a URL or a body are checked against it
 * before any lookup, so a malformed id is the same 404 as an unknown one and never reaches a query.
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
