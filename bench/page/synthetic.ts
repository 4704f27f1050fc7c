// A synthetic product-list page of at least 5,000 elements, a fifth of them interactive,
// mostly below the fold (like a long listing).
export function syntheticPage(cards = 300): string {
  const parts: string[] = [];
  for (let i = 0; i < cards; i++) {
    parts.push(
      `<section class="card"><h3>Item ${i}</h3><p>Description <b>${i}</b> <i>text</i></p>` +
        `<div><span>€${i}</span><a href="#i${i}">Open ${i}</a><button>Add ${i}</button>` +
        `<input aria-label="Qty ${i}"></div><ul><li>a</li><li>b</li><li>c</li></ul>` +
        `<footer><small>x</small><em>y</em></footer></section>`,
    );
  }
  return `<!doctype html><html><head><title>Synthetic</title></head><body><header><nav><a href="/">Home</a> <input type="search" placeholder="Search"></nav></header><main>${parts.join('')}</main></body></html>`;
}
