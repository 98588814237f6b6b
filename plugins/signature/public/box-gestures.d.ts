import type { PtBox, PxBox, Size } from './coordinates.js'
export const MIN_PX: number
export const NUDGE_PT: number
export const NUDGE_BIG_PT: number
export type DragMode = 'move' | 'nw' | 'ne' | 'sw' | 'se'
export function resizePx(start: PxBox, corner: string, dx: number, dy: number, shown: Size): PxBox
export function draggedBox(startPx: PxBox, mode: DragMode, dx: number, dy: number, pagePt: Size, shown: Size): PtBox
export function boxAtPointer(leftPx: number, topPx: number, size: Size, pagePt: Size, shown: Size): PtBox
export function boxStyle(box: PtBox, pagePt: Size, shown: Size): string
export function nudgedBox<B extends PtBox>(event: { key: string; shiftKey?: boolean; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean }, box: B, pagePt: Size, minPt: number): B | null
