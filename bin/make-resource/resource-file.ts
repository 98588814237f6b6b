import type { ColumnPlan } from './column-kinds.ts'
import { ERR_TABLE_WITHOUT_ID } from './generator-errors.ts'

export interface ResourceFileInput {
  /** PascalCase record name: 'Invoice'. */
  name: string
  table: string
  columns: readonly ColumnPlan[]
  engine: 'sqlite' | 'postgres'
  /** What the file imports the framework from: a relative path to core/index.ts, or the package's name. */
  framework: string
}

const TEXTAREA = /^(description|notes?|body|comment|content|details|text)$/
const q = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
const words = (snake: string) => snake.replace(/[_-]+/g, ' ').trim()
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
/** A key usable as a TypeScript property without quotes (column names usually are). */
const prop = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : q(name))
const access = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${q(name)}]`)

/**
 * The source of a resource file for a table: its record type, form fields by column type, the
 * list's columns, search over text columns, sort, and a tableSource. It uses only the framework's
 * public entry, zod and kysely's types, so it compiles and boots as written; it is a start to edit.
 */
export function resourceFile(input: ResourceFileInput): string {
  const { name, table, engine } = input
  const id = input.columns.find((c) => c.name === 'id')
  if (!id || id.kind !== 'text') {
    throw ERR_TABLE_WITHOUT_ID(`Table ${table} needs a text column "id" (its primary key): a table source reads, updates and deletes by it and gives new rows a UUID`)
  }
  const columns = input.columns.filter((c) => c.name !== 'id' && c.kind !== 'skipped')
  const skipped = input.columns.filter((c) => c.kind === 'skipped')
  const slug = table.toLowerCase().replace(/_/g, '-')
  const camel = name.charAt(0).toLowerCase() + name.slice(1)
  const recordLabel = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
  const texts = columns.filter((c) => c.kind === 'text')
  const shown = texts[0] ?? columns[0]
  const booleans = columns.filter((c) => c.kind === 'boolean')
  const yesNo = engine === 'postgres' ? "[{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }]" : "[{ value: '1', label: 'Yes' }, { value: '0', label: 'No' }]"

  const rowType = (c: ColumnPlan) => {
    const base = c.kind === 'text' ? 'string' : c.kind === 'integer' || c.kind === 'decimal' ? 'number | string'
      : c.kind === 'boolean' ? 'boolean | number' : 'string | Date'
    return c.nullable ? `${base} | null` : base
  }
  const recordType = (c: ColumnPlan) => {
    const base = c.kind === 'text' || c.kind === 'date' ? 'string' : c.kind === 'boolean' ? (engine === 'postgres' ? 'boolean' : 'number') : 'number'
    return c.nullable ? `${base} | null` : base
  }
  const fromRow = (c: ColumnPlan) => {
    const value = `row${access(c.name)}`
    const converted = c.kind === 'integer' || c.kind === 'decimal' ? `Number(${value})`
      : c.kind === 'boolean' ? (engine === 'postgres' ? `Boolean(${value})` : `Number(${value})`)
      : c.kind === 'date' ? `(${value} instanceof Date ? ${value}.toISOString() : ${value})`
      : value
    return c.nullable && converted !== value ? `${value} === null ? null : ${converted}` : converted
  }
  const field = (c: ColumnPlan) => {
    const label = capitalised(words(c.name))
    const required = !c.nullable
    // Every schema accepts its own output again: the form parses the body, the table source parses
    // what it is handed once more. Left empty, an optional field stores null.
    const orNull = (schema: string) => (c.nullable ? `z.union([z.literal('').transform(() => null), z.null(), ${schema}])` : schema)
    const emptyIsNull = '.transform((value) => (value === \'\' ? null : value))'
    let type = 'text'
    let schema: string
    let extra = ''
    if (c.kind === 'text') {
      type = /email/i.test(c.name) ? 'email' : TEXTAREA.test(c.name) ? 'textarea' : 'text'
      const max = c.maxLength ?? (type === 'textarea' ? 10_000 : 255)
      const text = `z.string().trim()${type === 'email' ? '.email()' : ''}.max(${max})`
      schema = !c.nullable ? text.replace('.trim()', '.trim().min(1)')
        // An e-mail field is checked only when filled in.
        : type === 'email' ? `z.union([z.literal(''), z.null(), ${text}])${emptyIsNull}`
        : `${text}.nullable()${emptyIsNull}`
    } else if (c.kind === 'integer') {
      type = 'number'
      schema = orNull('z.coerce.number().int()')
    } else if (c.kind === 'decimal') {
      type = 'number'
      schema = orNull('z.coerce.number()')
    } else if (c.kind === 'boolean') {
      type = 'select'
      extra = `, options: () => YES_NO`
      schema = orNull(engine === 'postgres' ? "z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])" : 'z.coerce.number().int().min(0).max(1)')
    } else {
      // A date or time as text (ISO 8601); change the field's type when the framework has one for dates.
      schema = c.nullable ? `z.string().trim().max(40).nullable()${emptyIsNull}` : 'z.string().trim().min(1).max(40)'
    }
    return `  { key: ${q(c.name)}, label: ${q(label)}, type: ${q(type)}, required: ${required}${extra}, schema: ${schema} },`
  }
  const column = (c: ColumnPlan) => {
    const parts = [`key: ${q(c.name)}`, `label: ${q(capitalised(words(c.name)))}`, 'sortable: true']
    if (c === shown) parts.push('primary: true')
    if (c.kind === 'boolean') parts.push(`value: (record) => (record${access(c.name)} ? 'Yes' : 'No')`)
    return `      { ${parts.join(', ')} },`
  }

  const lines = [
    `// Generated by \`npm run make:resource -- ${name} --table ${table}\` from the columns of ${table} (${engine === 'postgres' ? 'PostgreSQL' : 'SQLite'}).`,
    '// A start to edit: labels, validation, which columns sort (give each sorted column an index',
    '// ending in id, e.g. (customer, id)), filters, and the actions\' permissions.',
    ...(skipped.length > 0 ? [`// Left out (no form field for their type): ${skipped.map((c) => `${c.name} (${c.dataType})`).join(', ')}.`] : []),
    "import { z } from 'zod'",
    "import type { Kysely } from 'kysely'",
    `import { defineResource, tableSource, type FieldOption, type FormField, type Resource } from ${q(input.framework)}`,
    '',
    `/** A row of ${table} as the database hands it back (PostgreSQL: bigint and numeric as strings, timestamps as Date). */`,
    `export type ${name}Row = {`,
    ...[id, ...columns].map((c) => `  ${prop(c.name)}: ${c === id ? 'string' : rowType(c)}`),
    '}',
    '',
    `/** The tables this resource reads, for Kysely<${name}Tables>. */`,
    `export type ${name}Tables = { ${prop(table)}: ${name}Row }`,
    '',
    `/** A record of the resource: what the list, the page and the forms show. */`,
    `export type ${name} = {`,
    '  id: string',
    ...columns.map((c) => `  ${prop(c.name)}: ${recordType(c)}`),
    '}',
    '',
    ...(booleans.length > 0 ? [`const YES_NO: FieldOption[] = ${yesNo}`, ''] : []),
    `const FIELDS: FormField<${name}>[] = [`,
    ...columns.map(field),
    ']',
    '',
    `const toRecord = (row: ${name}Row): ${name} => ({`,
    '  id: row.id,',
    ...columns.map((c) => `  ${prop(c.name)}: ${fromRow(c)},`),
    '})',
    '',
    '/**',
    ` * The ${words(table)} screen: a list with search, sort and paging done in SQL, each record's page, and`,
    ' * the create, edit and delete forms. The framework checks each action\'s permission before it calls',
    ' * the source; an action left out has no route.',
    ' */',
    `export function ${camel}Resource(db: Kysely<${name}Tables>): Resource<${name}> {`,
    `  return defineResource<${name}>({`,
    `    slug: ${q(slug)},`,
    `    label: ${q(capitalised(words(table)))},`,
    `    recordLabel: ${q(recordLabel)},`,
    `    title: (record) => ${shown ? `\`${capitalised(recordLabel)} \${record${access(shown.name)}}\`` : `\`${capitalised(recordLabel)} \${record.id}\``},`,
    '    columns: [',
    ...columns.map(column),
    '    ],',
    `    defaultSort: ${q(shown?.name ?? 'id')},`,
    `    searchFields: [${texts.map((c) => q(c.name)).join(', ')}],`,
    '    perPage: 20,',
    ...(booleans.length > 0 ? [`    filters: [${booleans.map((c) => `{ key: ${q(c.name)}, label: ${q(capitalised(words(c.name)))}, options: YES_NO }`).join(', ')}],`] : []),
    '    form: { fields: FIELDS },',
    '    actions: {',
    `      view: { permission: ${q(`${slug}:read`)} },`,
    `      create: { permission: ${q(`${slug}:create`)} },`,
    `      edit: { permission: ${q(`${slug}:update`)} },`,
    `      delete: { permission: ${q(`${slug}:delete`)} },`,
    '    },',
    '    // The framework has checked the action\'s permission before any call; add a per-record rule here if one is needed.',
    `    source: tableSource<${name}Tables, ${q(table)}, ${name}>({ db, table: ${q(table)}, fields: FIELDS, toRecord, authorize: () => {} }),`,
    '  })',
    '}',
    '',
  ]
  return lines.join('\n')
}
