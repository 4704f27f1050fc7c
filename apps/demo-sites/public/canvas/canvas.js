// The kiosk's order screen, drawn on a canvas: a product card with a red "Order" button and a
// grey "Save for later" one. Clicks are hit-tested against the drawn rectangles, as canvas
// apps do; the only DOM the page changes is the status line. Geometry in CSS pixels of the
// canvas; src/canvas.ts exports the same rectangles in page pixels for tests.
const PRODUCT = 'Sourdough loaf';
const BUTTONS = [
  { id: 'order', label: 'Order', x: 48, y: 236, w: 200, h: 64, fill: '#c62828', ink: '#ffffff' },
  {
    id: 'later',
    label: 'Save for later',
    x: 280,
    y: 236,
    w: 240,
    h: 64,
    fill: '#9e9e9e',
    ink: '#1d2330',
  },
];

const canvas = document.getElementById('kiosk');
const status = document.getElementById('order-status');
const ratio = window.devicePixelRatio || 1;
canvas.width = 720 * ratio;
canvas.height = 360 * ratio;
const ctx = canvas.getContext('2d');
ctx.scale(ratio, ratio);

function draw() {
  ctx.fillStyle = '#fff8ee';
  ctx.fillRect(0, 0, 720, 360);
  ctx.fillStyle = '#e0c9a6';
  ctx.fillRect(48, 40, 140, 140);
  ctx.fillStyle = '#1d2330';
  ctx.font = '600 28px system-ui, sans-serif';
  ctx.fillText(PRODUCT, 220, 96);
  ctx.font = '18px system-ui, sans-serif';
  ctx.fillStyle = '#5b6475';
  ctx.fillText('$6.50 · baked this morning', 220, 132);
  for (const b of BUTTONS) {
    ctx.fillStyle = b.fill;
    ctx.fillRect(b.x, b.y, b.w, b.h);
    ctx.fillStyle = b.ink;
    ctx.font = '600 22px system-ui, sans-serif';
    const width = ctx.measureText(b.label).width;
    ctx.fillText(b.label, b.x + (b.w - width) / 2, b.y + b.h / 2 + 8);
  }
}

function buttonAt(x, y) {
  return BUTTONS.find((b) => x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h);
}

canvas.addEventListener('click', (event) => {
  const rect = canvas.getBoundingClientRect();
  const button = buttonAt(event.clientX - rect.left, event.clientY - rect.top);
  if (button?.id === 'order') status.textContent = `Order placed: 1 × ${PRODUCT}`;
  else if (button?.id === 'later') status.textContent = `${PRODUCT} saved for later`;
});

canvas.addEventListener('mousemove', (event) => {
  const rect = canvas.getBoundingClientRect();
  canvas.style.cursor = buttonAt(event.clientX - rect.left, event.clientY - rect.top)
    ? 'pointer'
    : 'default';
});

draw();
