// Rectangles in top-level viewport coordinates. Elements in iframes are shifted by the frame's
// content offset so every coordinate the server sees is clickable in the top viewport.

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function intersection(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.w, b.x + b.w);
  const bottom = Math.min(a.y + a.h, b.y + b.h);
  if (right <= x || bottom <= y) return null;
  return { x, y, w: right - x, h: bottom - y };
}

export const intersects = (a: Rect, b: Rect): boolean => intersection(a, b) !== null;

export const expandVertically = (r: Rect, by: number): Rect => ({
  x: r.x,
  y: r.y - by,
  w: r.w,
  h: r.h + 2 * by,
});

export const center = (r: Rect): [number, number] => [r.x + r.w / 2, r.y + r.h / 2];

export const roundRect = (r: Rect): [number, number, number, number] => [
  Math.round(r.x),
  Math.round(r.y),
  Math.round(r.w),
  Math.round(r.h),
];
