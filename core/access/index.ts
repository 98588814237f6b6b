export { compilePolicy, AccessConfigError, type Policy, type Decision } from './policy.ts'
export { accessConfigSchema, type AccessConfig, type AccessConfigInput } from './access-config.ts'
export { assertPermission, requireAdmin, type Principal } from './assert-permission.ts'
export { isValidGrant, isValidPermission, ruleCovers } from './permission.ts'
