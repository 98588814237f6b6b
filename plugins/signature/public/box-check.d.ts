export const MIN_BOX_POINTS: number
export const EDGE_TOLERANCE_POINTS: number
export interface BoxProblem { code: 'ERR_BOX_TOO_SMALL' | 'ERR_PLACEMENT_OFF_PAGE'; message: string }
export function boxProblem(box: { page: number; x: number; y: number; width: number; height: number }, pages: ReadonlyArray<{ width: number; height: number }>, label?: string): BoxProblem | null
