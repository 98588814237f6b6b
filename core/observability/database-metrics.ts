import { poolStatsOf } from '../db/database.ts'
import type { Metrics } from './metrics.ts'

/** database_pool_connections{state="in_use|idle|waiting"}: the PostgreSQL pool now (nothing on SQLite). */
export function registerDatabaseMetrics(metrics: Metrics, db: object): void {
  const stats = poolStatsOf(db)
  if (!stats || !metrics.enabled) return
  metrics.gauge({
    name: 'database_pool_connections',
    help: 'PostgreSQL pool of this instance: connections in use and idle, and queries waiting for one',
    labelNames: ['state'],
    collect: () => {
      const now = stats() ?? { total: 0, idle: 0, waiting: 0 }
      return [
        { labels: { state: 'in_use' }, value: now.total - now.idle },
        { labels: { state: 'idle' }, value: now.idle },
        { labels: { state: 'waiting' }, value: now.waiting },
      ]
    },
  })
}
