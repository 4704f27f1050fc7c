// Hybrid mode's screenshot (docs/specs.md, "Hybrid Vision + Skeleton Mode"): the visible viewport
// of the task's tab as a JPEG, scaled so one image pixel is one CSS pixel. The model reads points
// off the image and answers clickAt(x, y) in CSS pixels; on a 2× display an unscaled shot
// would double every coordinate. (The spec in docs/specs.md, "Hybrid Vision + Skeleton Mode", says
// 1024 px wide; the viewport's own width keeps the one-to-one mapping instead.)
import type { Viewport } from '@tandem/contracts';

const JPEG_QUALITY = 0.7;

/** The size to scale an image of `image` pixels to, or null when it already is one-to-one. */
export function cssPixelSize(
  image: { width: number; height: number },
  viewport: Viewport | undefined,
): { width: number; height: number } | null {
  if (!viewport || image.width <= 0) return null;
  const width = Math.round(viewport.width);
  if (Math.abs(image.width - width) <= 1) return null;
  return { width, height: Math.max(1, Math.round((image.height * width) / image.width)) };
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk)
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** The data URL's JPEG scaled to CSS pixels (OffscreenCanvas: a service worker has no DOM). */
async function scaled(dataUrl: string, viewport: Viewport | undefined): Promise<string> {
  const base64 = dataUrl.replace(/^data:image\/jpeg;base64,/, '');
  const blob = await (await fetch(dataUrl)).blob();
  const bitmap = await createImageBitmap(blob);
  const size = cssPixelSize(bitmap, viewport);
  if (!size) {
    bitmap.close();
    return base64;
  }
  const canvas = new OffscreenCanvas(size.width, size.height);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  const jpeg = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
  return base64Of(new Uint8Array(await jpeg.arrayBuffer()));
}

/**
 * The tab's viewport as base64 JPEG, or null. captureVisibleTab shoots the window's active tab,
 * so the task's tab is brought to the front first (the agent acts on it anyway), and a shot is
 * dropped when another tab turned out to be showing: a point read off the wrong page must
 * never be clicked.
 */
export async function screenshotTab(tabId: number, viewport?: Viewport): Promise<string | null> {
  const tab = await chrome.tabs.get(tabId);
  if (tab.windowId === undefined) return null;
  if (!tab.active) {
    await chrome.tabs.update(tabId, { active: true });
    // Let the tab paint before it is shot.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, {
    format: 'jpeg',
    quality: Math.round(JPEG_QUALITY * 100),
  });
  const [shown] = await chrome.tabs.query({ active: true, windowId: tab.windowId });
  if (shown?.id !== tabId) return null;
  return scaled(dataUrl, viewport);
}
