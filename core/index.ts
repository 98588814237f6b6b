// The framework's one public entry point, as plugins/signature/index.ts is the plugin's: a host
// (host-app, examples, an installed package) imports from this file only; test/architecture and
// the before-stop hook check it. What is not exported here is internal and may change.

// An application in one call, or its parts for a host that composes them itself.
export { createApp, DEFAULT_THROTTLE, type CreateAppOptions } from './create-app.ts'
export { createCoreApp, type CoreAppOptions } from './create-core-app.ts'
export { setupViews, type ViewsOptions, type PageOptions } from './views/setup-views.ts'
export { authPages } from './panel/auth-pages.ts'
export { launcherPages } from './launcher/launcher-pages.ts'
export { defineModules, type LauncherModule, type LauncherModuleInput } from './launcher/define-modules.ts'

// Access: permissions "<resource>:<action>", one decide() for hiding and refusing.
export * from './access/index.ts'

// Users and sign-in.
export { fixedUsers, type FixedAccount } from './auth/fixed-users.ts'
export { hashPassword, verifyPassword } from './auth/passwords.ts'
export { requireUser } from './auth/require-user.ts'
export { createMemoryLoginThrottle, type LoginThrottle, type ThrottleOptions } from './auth/login-throttle.ts'
export { createRedisLoginThrottle } from './auth/redis-login-throttle.ts'
export { watchRedis } from './auth/redis-connection.ts'
export {
  toPublicUser, searchedFields, isUserSearchField, isUserSortField, USER_SEARCH_FIELDS, USER_SORT_FIELDS,
  type UserRecord, type PublicUser, type UserRepository, type UserListQuery, type UserListResult, type NewUser, type UserPatch,
  type UpdateOptions, type DeleteOptions, type UserSearchField, type UserSortField,
} from './auth/user-repository.ts'

// Panels and resources.
export { Panel, type PanelBuilder } from './panel/panel.ts'
export type { PanelPlugin, PanelContext, NavigationItem } from './panel/panel-plugin.ts'
export type { PanelAccess } from './panel/panel-gate.ts'
export {
  WIDGET_ROWS, type DashboardWidget, type CounterWidget, type TableWidget, type WidgetCell, type WidgetLink,
} from './views/dashboard-widgets.ts'
export {
  defineResource, sortOrders,
  type Resource, type AnyResource, type ResourceDefinition, type ResourceSource, type ResourceAction, type ResourceRecord,
  type ResourceColumn, type ResourceField, type FormField, type WriteOnlyField, type ResourceFilter, type ResourceListQuery,
  type FieldOption, type FieldKey, type SortOrder, type SortValue, type FieldType,
  type SelectFilter, type TernaryFilter, type DateRangeFilter, type DateRange,
  type RecordAction, type BulkAction, type RelationList,
} from './resource/define-resource.ts'
// What a form field accepts (a browser sends text, an unchecked box nothing) and how a value reads.
export { dateValue, dateTimeValue, booleanValue, decimalValue, moneyValue } from './resource/field-values.ts'
export { formatDate, formatDateTime, formatMoney, formatBoolean } from './resource/display-value.ts'
export { defineRule, allRules, type Rule } from './resource/rule.ts'

// Errors with stable codes, and input parsing at a boundary.
export {
  AppError, defineError, isAppError, type ErrorFactory,
  ERR_VALIDATION, ERR_UNAUTHENTICATED, ERR_ACCESS_DENIED, ERR_NOT_FOUND, ERR_CONFLICT,
} from './http/errors.ts'
export { parseInput } from './http/validate.ts'
export { loggerOptions } from './http/access-log.ts'
export { lateLog, type FaultLog } from './http/late-log.ts'
export { rememberingQueryParser } from './http/query-parser.ts'

// The database (SQLite by default, PostgreSQL by URL), migrations, and the read helpers stores use.
export { openDatabase, type Database, type DatabaseOptions } from './db/database.ts'
export { migrateToLatest } from './db/migrate.ts'
export { compiledOnce } from './db/compiled-once.ts'
export { readsOfOneTurn, lookupsOfOneTurn } from './db/reads-of-one-turn.ts'
export { countUpTo, keptEstimate, pageTotal, EXACT_COUNT_LIMIT } from './db/page-total.ts'
export { pageOfRows, DEFERRED_FROM, type PageOfRowsOptions } from './db/page-of-rows.ts'
export { createTrigramIndex } from './db/trigram-index.ts'
export { databaseHealthOf } from './db/database.ts'

// Resources over a real table: search, sort, filters, paging and counts in SQL.
export { tableSource, type TableSourceOptions, type TableAction } from './resource/table-source.ts'

// Operating it: readiness checks and metrics (/healthz, /readyz, /metrics).
export { databaseAnswers } from './observability/database-readiness.ts'
export { registerDatabaseMetrics } from './observability/database-metrics.ts'
export { metricsAccess } from './observability/metrics-access.ts'

// Files: disks with safe paths and atomic writes, and secrets kept in key files.
export { Disks } from './storage/disks.ts'
export type { Disk } from './storage/disk.ts'
export { atomicWriteFile } from './storage/atomic-write.ts'
export { loadOrCreateKeyFile, parseKey32 } from './storage/key-file.ts'
