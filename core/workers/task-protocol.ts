export interface TaskRequest {
  id: number
  task: string
  payload: unknown
}

export type TaskReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string; code?: string; statusCode?: number } }

/** Sent once by a worker when its task handlers are installed: task time limits count from here, not from thread start-up. */
export interface WorkerReady {
  ready: true
}
