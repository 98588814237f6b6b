import { hashPassword, type UserRecord } from '../../core/index.ts'

export const DEMO_PASSWORD = 'password'

const FIRST = ['Olivia', 'Noah', 'Emma', 'Liam', 'Ava', 'Elijah', 'Sophia', 'Lucas', 'Mia', 'Mateo', 'Isabella', 'Levi',
  'Amelia', 'Ezra', 'Harper', 'Kai', 'Evelyn', 'Theo', 'Luna', 'Jonah', 'Nora', 'Felix', 'Iris', 'Omar']
const LAST = ['Hughes', 'Patel', 'Okafor', 'Nguyen', 'Schmidt', 'Rossi', 'Kowalski', 'Silva', 'Tanaka', 'Haddad', 'Larsen', 'Moreau',
  'Byrne', 'Costa', 'Fischer', 'Kim', 'Novak', 'Reyes', 'Sato', 'Varga', 'Weber', 'Yilmaz', 'Zhou', 'Adeyemi']
const ROLES = ['staff', 'staff', 'manager'] as const

let hashed: Promise<string> | undefined

/**
 * The accounts every boot starts with. Ids are fixed so links survive a restart. All demo accounts
 * share one password, so it is hashed once per process (scrypt is deliberately slow).
 */
export async function demoUsers(): Promise<UserRecord[]> {
  hashed ??= hashPassword(DEMO_PASSWORD)
  const passwordHash = await hashed
  const users: UserRecord[] = [
    { id: 'u-admin', name: 'Ada Admin', email: 'admin@example.com', role: 'admin', passwordHash, sessionVersion: 0 },
    { id: 'u-manager', name: 'Max Manager', email: 'manager@example.com', role: 'manager', passwordHash, sessionVersion: 0 },
    { id: 'u-staff', name: 'Sam Staff', email: 'staff@example.com', role: 'staff', passwordHash, sessionVersion: 0 },
  ]
  FIRST.forEach((first, i) => {
    const last = LAST[(i * 7) % LAST.length]!
    users.push({
      id: `u-${String(i + 1).padStart(3, '0')}`,
      name: `${first} ${last}`,
      email: `${first}.${last}@example.com`.toLowerCase(),
      role: ROLES[i % ROLES.length]!,
      passwordHash,
      sessionVersion: 0,
    })
  })
  return users
}
