// STORAGE_DRIVER=database keeps documents in PostgreSQL: on SQLite it would share nothing, so the
// boot stops before anything is written, with a stable code — from the environment check, and
// from the plugin for a host that hands it a SQLite database itself.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { loadAppEnv } from '../../../config/app.ts'
import { buildApp } from '../../../host-app/app.ts'

t.test('the environment: STORAGE_DRIVER=database without DATABASE_URL', async (t) => {
  t.throws(() => loadAppEnv({ STORAGE_DRIVER: 'database' }), /STORAGE_DRIVER: ERR_STORAGE_DRIVER_NEEDS_POSTGRES: .*DATABASE_URL/)
  t.throws(() => loadAppEnv({ STORAGE_DRIVER: 's3' }), /STORAGE_DRIVER/, 'an unknown driver is refused too')
  t.equal(loadAppEnv({}).STORAGE_DRIVER, 'disk', 'the disk driver is the default')
  t.equal(loadAppEnv({ STORAGE_DRIVER: 'database', DATABASE_URL: 'postgres://db/app' }).STORAGE_DRIVER, 'database')
})

t.test('the plugin: a SQLite database with the database driver stops the boot, writing no document', async (t) => {
  const storage = await mkdtemp(path.join(tmpdir(), 'storage-driver-'))
  t.teardown(() => rm(storage, { recursive: true, force: true }))
  // Past the environment check (a host composing its own env): the plugin still refuses.
  await t.rejects(buildApp({ env: { STORAGE_PATH: storage, STORAGE_DRIVER: 'database', DATABASE_URL: undefined, DATABASE_SCHEMA: undefined, USERS_STORE: 'memory' } }),
    { code: 'ERR_STORAGE_DRIVER_NEEDS_POSTGRES', message: /DATABASE_URL/ })
  const made = await readdir(storage)
  t.notOk(made.includes('keys') && (await readdir(path.join(storage, 'keys'))).some((f) => f.startsWith('certificate-authority')), 'no CA was created')
  t.notOk(made.includes('disks') || made.includes('spool'), 'no document folder or spool was made')
})
