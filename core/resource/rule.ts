/**
 * A rule beyond the permission itself (rank, "not your own account"), written once and used
 * twice: `allows` hides the control on the page, `assert` refuses the write in the service.
 * Filament's "a hidden action is also refused by the server" holds because both are this object.
 */
export interface Rule<Args extends unknown[]> {
  allows(...args: Args): boolean
  /** Throws the rule's refusal when allows() is false. */
  assert(...args: Args): void
}

export function defineRule<Args extends unknown[]>(allows: (...args: Args) => boolean, refusal: (...args: Args) => Error): Rule<Args> {
  return {
    allows,
    assert(...args) {
      if (!allows(...args)) throw refusal(...args)
    },
  }
}

/** Every rule must allow; assert() refuses with the first that does not, so their order picks the message. */
export function allRules<Args extends unknown[]>(...rules: Rule<Args>[]): Rule<Args> {
  return {
    allows: (...args) => rules.every((rule) => rule.allows(...args)),
    assert(...args) {
      for (const rule of rules) rule.assert(...args)
    },
  }
}
