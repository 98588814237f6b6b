import { z } from 'zod'
import { isValidGrant } from './permission.ts'

const ROLE_NAME = /^[a-z][a-z0-9_-]*$/

const roleName = z.string().regex(ROLE_NAME, 'a role name is lower-case letters, digits, "-" or "_", starting with a letter')
const grant = z.string().refine(isValidGrant, {
  error: (issue) => `"${String(issue.input)}" is not a permission ("<resource>:<action>", "<resource>:*", a module CODE, or "*")`,
})

export const accessConfigSchema = z
  .object({
    roles: z.record(roleName, z.array(grant)),
    hierarchy: z.record(roleName, z.array(roleName)).default({}),
    deny: z.record(roleName, z.array(grant)).default({}),
    adminRoles: z.array(roleName).min(1),
  })
  .strict()
  .superRefine((config, ctx) => {
    const roles = new Set(Object.keys(config.roles))
    const known = (role: string, path: (string | number)[]) => {
      if (!roles.has(role)) ctx.addIssue({ code: 'custom', path, message: `unknown role "${role}"` })
    }
    for (const [role, parents] of Object.entries(config.hierarchy)) {
      known(role, ['hierarchy', role])
      parents.forEach((parent, i) => known(parent, ['hierarchy', role, i]))
    }
    for (const role of Object.keys(config.deny)) known(role, ['deny', role])
    config.adminRoles.forEach((role, i) => known(role, ['adminRoles', i]))
  })

export type AccessConfigInput = z.input<typeof accessConfigSchema>
export type AccessConfig = z.output<typeof accessConfigSchema>
