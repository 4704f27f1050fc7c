// The canvas kiosk (/canvas/): an order screen drawn on a <canvas>, whose buttons exist only as
// pixels. Its layout is fixed (public/canvas/canvas.css), so the drawn buttons sit at these
// points of the page at any viewport of at least 800×600; canvas.int.test.ts checks that they
// do. Tests of hybrid mode (a screenshot and a coordinate click) read them.

export interface PageRect {
  /** CSS pixels from the page's top-left corner (the page does not scroll). */
  x: number;
  y: number;
  width: number;
  height: number;
}

const CANVAS: PageRect = { x: 32, y: 176, width: 720, height: 360 };
const onCanvas = (x: number, y: number, width: number, height: number): PageRect => ({
  x: CANVAS.x + x,
  y: CANVAS.y + y,
  width,
  height,
});

export const CANVAS_KIOSK = {
  canvas: CANVAS,
  /** The red "Order" button: clicking it shows `ordered` in `#order-status`. */
  order: onCanvas(48, 236, 200, 64),
  /** The grey "Save for later" button: shows `savedForLater`. */
  saveForLater: onCanvas(280, 236, 240, 64),
  /** The order button's fill. */
  orderColour: { r: 0xc6, g: 0x28, b: 0x28 },
  ordered: 'Order placed: 1 × Sourdough loaf',
  savedForLater: 'Sourdough loaf saved for later',
} as const;

/** The centre of a rectangle, rounded to whole CSS pixels. */
export function centreOf(rect: PageRect): { x: number; y: number } {
  return { x: Math.round(rect.x + rect.width / 2), y: Math.round(rect.y + rect.height / 2) };
}
