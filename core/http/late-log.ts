/** The part of a pino logger that background faults are reported to (app.log fits). */
export interface FaultLog {
  info(object: object, message: string): void
  warn(object: object, message: string): void
  error(object: object, message: string): void
}

export interface LateLog extends FaultLog {
  /** From now on, lines go to `log`. */
  sendTo(log: FaultLog): void
}

/**
 * A log for parts opened before the app's logger exists (the database pool, Redis): until
 * `sendTo`, the same JSON shape as pino's on stderr, so that no line of the process is anything
 * but JSON.
 */
export function lateLog(): LateLog {
  let target: FaultLog | undefined
  const line = (level: number, name: keyof FaultLog) => (object: object, message: string) => {
    if (target) return target[name](object, message)
    process.stderr.write(`${JSON.stringify({ level, time: Date.now(), ...object, msg: message })}\n`)
  }
  return { info: line(30, 'info'), warn: line(40, 'warn'), error: line(50, 'error'), sendTo: (log) => { target = log } }
}
