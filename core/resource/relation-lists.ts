import type { PublicUser } from '../auth/user-repository.ts'
import type { RelationList } from './define-resource.ts'
import { displayText } from './table-model.ts'

export interface RelationSection {
  key: string
  label: string
  headers: string[]
  rows: Array<{ cells: Array<{ label: string; text: string }> }>
  empty: string
}

/**
 * The relation lists of a record's page the actor may see (decide() for each list's permission),
 * each fetched for that actor; cells say their values as a column of their type would.
 */
export async function relationSections<R>(lists: readonly RelationList<R>[], actor: PublicUser, can: (permission: string) => boolean, record: R): Promise<RelationSection[]> {
  const sections: RelationSection[] = []
  for (const list of lists) {
    if (!can(list.permission)) continue
    const rows = await list.rows(actor, record)
    sections.push({
      key: list.key,
      label: list.label,
      headers: list.columns.map((column) => column.label),
      rows: rows.map((row) => ({ cells: list.columns.map((column) => ({ label: column.label, text: displayText(column, (row as Record<string, unknown>)[column.key]) })) })),
      empty: list.empty ?? `No ${list.label.toLowerCase()} yet`,
    })
  }
  return sections
}
