export interface PtBox { x: number; y: number; width: number; height: number }
export interface PagedBox extends PtBox { page: number }
export function roundPt(value: number): number
export function placementOf(slot: PagedBox): PagedBox
export function samePlacement(a: PagedBox, b: PagedBox): boolean
export function clampToPage(box: PtBox, page: { width: number; height: number }): PtBox
export function snapBox<B extends PtBox>(box: B, edges: string, options: { grid: number; others?: PtBox[]; reach?: number }): B
export function resizeByKey<B extends PtBox>(box: B, key: string, step: number, min: number): B | null
export interface UndoEntry { key: string; before: PagedBox; gesture?: unknown }
export function createUndoHistory(limit?: number): { record(key: string, before: PagedBox, gesture?: unknown): void; undo(): UndoEntry | null; readonly size: number }
export function saveAllReport(results: Array<{ label: string; ok: boolean; message?: string }>): { ok: boolean; message: string }
