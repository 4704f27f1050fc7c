// Pages without a tree, end to end: on the canvas kiosk the Order button is
// pixels only, so the tree lists nothing. The goal is visual, so the server asks for a
// screenshot (needs_screenshot); the real extension takes one of the tab and resends the step
// in hybrid mode; the model receives it as an image part and answers clickAt at the red
// button; the extension clicks that point after its fail-safe checks, the kiosk places the
// order, and verification finishes the task.
import { CANVAS_KIOSK, centreOf, DEMO_PAGES } from '@tandem/demo-sites';
import { fakeGemini } from './support/fake-gemini-control';
import { CANVAS_GOAL } from './support/fake-hybrid-model';
import { openPanel, shoot } from './support/flow';
import { expect, finished, openDemo, startGoal, test, waitForRun } from './support/fixtures';

const { x, y } = centreOf(CANVAS_KIOSK.order);

test('a canvas-only button is clicked by coordinates in hybrid mode', async ({ ext }) => {
  const fake = fakeGemini(ext.env.gemini);
  const callsBefore = (await fake.calls()).length;
  const { page, tabId } = await openDemo(ext, DEMO_PAGES.canvas);
  const popup = await startGoal(ext, tabId, CANVAS_GOAL);

  const run = await waitForRun(ext, tabId, finished, 90_000);
  expect(run.status, JSON.stringify(run, null, 2)).toBe('completed');
  // The page's own state changed: the kiosk placed the order.
  await expect(page.locator('#order-status')).toHaveText(CANVAS_KIOSK.ordered);

  // A screenshot first (nothing executed), then the point, verified like a click.
  expect(run.steps.map((s) => s.summary)).toEqual([
    'Looked at a screenshot of the page',
    `Clicked the point (${x}, ${y}) of the page`,
  ]);
  expect(run.steps[1]?.action).toBe(`clickAt(${x}, ${y})`);
  expect(run.steps[1]?.verification).toMatchObject({ success: true, verificationTier: 1 });

  // The model was sent the screenshot as an image part, once: on the step that clicked.
  const calls = (await fake.calls()).slice(callsBefore).filter((c) => c.goal === CANVAS_GOAL);
  const generation = calls.filter((c) => c.node === 'action_generation');
  expect(generation).toHaveLength(1);
  const image = generation[0]?.images[0];
  expect(generation[0]?.images).toHaveLength(1);
  expect(image?.mimeType).toBe('image/jpeg');
  expect(generation[0]?.prompt).toContain('Screenshot: attached, the visible viewport of 1280×800');
  expect(
    calls.filter((c) => c.node !== 'action_generation').every((c) => c.images.length === 0),
  ).toBe(true);

  // And it is the kiosk as the user saw it: one image pixel per CSS pixel, and red where the
  // model clicked (decoded in the browser; JPEG colours are approximate).
  const seen = await popup.evaluate(
    async ({ data, px, py }) => {
      const img = new Image();
      img.src = `data:image/jpeg;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d');
      ctx?.drawImage(img, 0, 0);
      const rgb = ctx?.getImageData(px, py, 1, 1).data;
      return { width: img.naturalWidth, height: img.naturalHeight, rgb: Array.from(rgb ?? []) };
    },
    { data: image?.data ?? '', px: x, py: y },
  );
  expect({ width: seen.width, height: seen.height }).toEqual({ width: 1280, height: 800 });
  const [r = 0, g = 0, b = 0] = seen.rgb;
  const { r: red, g: green, b: blue } = CANVAS_KIOSK.orderColour;
  expect(Math.max(Math.abs(r - red), Math.abs(g - green), Math.abs(b - blue))).toBeLessThan(40);

  const panel = await openPanel(ext, tabId);
  await expect(panel.locator('#steps > li')).toHaveCount(2);
  await expect(panel.locator('#steps')).toContainText('Looked at a screenshot of the page');
  await shoot(panel, 'hybrid', 'panel');
  await panel.close();
});
