import type { ColumnMetadata } from 'kysely'

/**
 * What a column becomes in a resource, from its database type as Kysely's introspection reports
 * it (SQLite: the declared type, e.g. 'varchar(120)'; PostgreSQL: the type name, e.g. 'int8').
 * Types without a sensible form field (json, blobs) are left out of the form and the table.
 */
export type ColumnKind = 'text' | 'integer' | 'decimal' | 'boolean' | 'date' | 'skipped'

export interface ColumnPlan {
  name: string
  /** As the database reported it, for the generated file's comments. */
  dataType: string
  kind: ColumnKind
  nullable: boolean
  /** From varchar(n) / character varying(n) on SQLite; PostgreSQL's introspection does not report it. */
  maxLength: number | null
}

const INTEGER = /^(int|integer|int2|int4|int8|smallint|bigint|mediumint|tinyint|serial|bigserial|smallserial)$/
const DECIMAL = /^(real|float|float4|float8|double|double precision|numeric|decimal|money)$/
const BOOLEAN = /^(bool|boolean)$/
const DATE = /^(date|datetime|time|timetz|timestamp|timestamptz|timestamp with(out)? time zone)$/
const TEXT = /^(text|varchar|character varying|char|character|nchar|nvarchar|bpchar|citext|uuid|name|clob|string)$/

export function planColumn(column: ColumnMetadata): ColumnPlan {
  const declared = column.dataType.trim().toLowerCase()
  const base = declared.replace(/\s*\(.*\)\s*$/, '')
  const length = /\((\d+)\)\s*$/.exec(declared)
  const kind: ColumnKind = INTEGER.test(base) ? 'integer'
    : DECIMAL.test(base) ? 'decimal'
    : BOOLEAN.test(base) ? 'boolean'
    : DATE.test(base) ? 'date'
    // SQLite accepts any declared type; an empty one holds anything, shown as text.
    : TEXT.test(base) || base === '' ? 'text'
    : 'skipped'
  return { name: column.name, dataType: column.dataType, kind, nullable: column.isNullable, maxLength: kind === 'text' && length ? Number(length[1]) : null }
}
