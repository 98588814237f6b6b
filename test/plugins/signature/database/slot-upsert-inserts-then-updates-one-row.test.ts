import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { TemplateSlotRepository } from '../../../../plugins/signature/database/template-slot-repository.ts'
import { forEachEngine } from '../../../core/db/engines.ts'

forEachEngine(t, 'upsert by (template_key, slot_key) inserts once, then updates the same row', async (database, _engine, st) => {
  await migrateToLatest(database.db, signatureMigrations)
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const slots = new TemplateSlotRepository(database.db, () => new Date(clock))

  const first = await slots.upsert('daily-time-record', 'employee', { page: 1, x: 72, y: 80, width: 200, height: 50 })
  st.same([first.page, first.x, first.y, first.width, first.height], [1, 72, 80, 200, 50])

  clock += 60_000
  const second = await slots.upsert('daily-time-record', 'employee', { page: 2, x: 100.5, y: 90.25, width: 180, height: 40 })
  st.same([second.page, second.x, second.y, second.width, second.height], [2, 100.5, 90.25, 180, 40], 'the saved row wins')
  st.equal(second.createdAt, first.createdAt, 'created_at is kept on update')
  st.not(second.updatedAt, first.updatedAt, 'updated_at moves on update')

  await slots.upsert('daily-time-record', 'supervisor', { page: 1, x: 500, y: 80, width: 200, height: 50 })
  await slots.upsert('payslip', 'employee', { page: 1, x: 1, y: 2, width: 3, height: 4 })

  const rows = await database.db.selectFrom('digital_pdf_template_slots').select(['template_key', 'slot_key']).orderBy('template_key').orderBy('slot_key').execute()
  st.same(rows, [
    { template_key: 'daily-time-record', slot_key: 'employee' },
    { template_key: 'daily-time-record', slot_key: 'supervisor' },
    { template_key: 'payslip', slot_key: 'employee' },
  ], 'one row per (template, slot), keys do not leak across templates')
  st.same((await slots.forTemplate('daily-time-record')).map((s) => s.slotKey), ['employee', 'supervisor'])
  st.equal(await slots.find('daily-time-record', 'nobody'), null)
})

forEachEngine(t, 'the unique constraint holds even without the upsert', async (database, _engine, st) => {
  await migrateToLatest(database.db, signatureMigrations)
  const row = { template_key: 'a', slot_key: 'b', page: 1, x: 0, y: 0, width: 1, height: 1, created_at: 'x', updated_at: 'x' }
  await database.db.insertInto('digital_pdf_template_slots').values(row).execute()
  await st.rejects(database.db.insertInto('digital_pdf_template_slots').values(row).execute())
})
