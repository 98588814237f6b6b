export interface Size { width: number; height: number }
export interface PxBox { left: number; top: number; width: number; height: number }
export interface PtBox { x: number; y: number; width: number; height: number }
export function scaleOf(pagePt: Size, shownPx: Size): number
export function pxToPt(box: PxBox, pagePt: Size, shownPx: Size): PtBox
export function ptToPx(box: PtBox, pagePt: Size, shownPx: Size): PxBox
export function clampPx(box: PxBox, shownPx: Size, minSize?: number): PxBox
export function ptToPercent(box: PtBox, pagePt: Size): PxBox
