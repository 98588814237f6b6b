export interface TaskRequest {
  id: number
  task: string
  payload: unknown
}

export type TaskReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string; code?: string; statusCode?: number } }
