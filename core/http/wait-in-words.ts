/**
 * A Retry-After in words for people: "in 15 minutes", "in 1 minute", "in under a minute". The
 * header keeps the exact seconds for programs; nobody should have to divide 900 by 60.
 */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return 'in under a minute'
  const minutes = Math.ceil(seconds / 60)
  if (minutes <= 120) return minutes === 1 ? 'in 1 minute' : `in ${minutes} minutes`
  return `in ${Math.ceil(minutes / 60)} hours`
}
