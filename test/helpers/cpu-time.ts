/**
 * CPU milliseconds this process spent running `work`. Bounds on work done ("refused before
 * inflating", "never loops") are stated in CPU time, not wall time: a machine busy with other
 * processes stretches the wall clock tenfold (seen in CI with two test files at once) but not this.
 */
export async function cpuMillisecondsOf(work: () => unknown): Promise<number> {
  const before = process.cpuUsage()
  await work()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}
