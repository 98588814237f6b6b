import { z } from 'zod'
import type { Policy } from '../access/policy.ts'
import { parseInput } from '../http/validate.ts'

const moduleSchema = z
  .object({
    /** The grant code that shows the module, e.g. 'ALERTS'. */
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'a module code is upper-case, e.g. ALERTS'),
    label: z.string().min(1),
    /** Local path the entry opens. */
    href: z.string().regex(/^\/[^/\\]/, 'a local path such as /orders'),
    /** Tiles are modules run during a shift; the dock holds stations entered and left. */
    placement: z.enum(['tile', 'dock']),
    size: z.enum(['normal', 'wide']).default('normal'),
    highlighted: z.boolean().default(false),
    description: z.string().default(''),
    /** The name of an icon of the app's one set (core/views/components/icon.eta); any other short text is shown as it is. */
    icon: z.string().max(32).default('dot'),
  })
  .strict()

export type LauncherModuleInput = z.input<typeof moduleSchema>
export type LauncherModule = z.output<typeof moduleSchema>

/** Validated at boot: a duplicate code or a bad path stops the start with the offending entry named. */
export function defineModules(modules: LauncherModuleInput[]): LauncherModule[] {
  const parsed = parseInput(z.array(moduleSchema), modules, 'modules')
  const codes = new Set<string>()
  for (const m of parsed) {
    if (codes.has(m.code)) throw new Error(`The module code ${m.code} is declared twice`)
    codes.add(m.code)
  }
  return parsed
}

/** The modules a role may see, decided on the server before anything is rendered. */
export function modulesFor(policy: Policy, role: string | null | undefined, modules: LauncherModule[]) {
  const visible = modules.filter((m) => policy.can(role, m.code))
  return { tiles: visible.filter((m) => m.placement === 'tile'), dock: visible.filter((m) => m.placement === 'dock') }
}
