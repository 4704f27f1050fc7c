// The /extractions page's stylesheet, inlined by its layout (no CSS pipeline, like the admin).
export const EXTRACTIONS_CSS = `
.docs-page { max-width: 1200px; margin: 0 auto; color: #1d2433; }
.docs-page > header { display: flex; align-items: center; gap: 1rem; border-bottom: 1px solid #dde2ea; padding-bottom: .75rem; margin-bottom: 1.25rem; }
.docs-page > header strong { font-size: 1.1rem; flex: 1; }
.docs-page > header form { margin: 0; }
.docs-page h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
.docs-page h2 { font-size: 1.05rem; margin: 0 0 .6rem; }
.docs-page .muted { color: #667085; }
.docs-page .small { font-size: .8rem; }
.docs-page .error { background: #fdecec; border: 1px solid #f5b5b5; padding: .6rem .9rem; border-radius: 6px; }
.docs-page .warn { background: #fff4d6; border: 1px solid #f1d48a; padding: .5rem .9rem; border-radius: 6px; }
.docs-page input, .docs-page textarea, .docs-page button { font: inherit; padding: .4rem .55rem; border: 1px solid #c4ccd8; border-radius: 5px; background: #fff; }
.docs-page button { background: #2357c6; color: #fff; border-color: #2357c6; cursor: pointer; }
.docs-page button:disabled { opacity: .55; cursor: default; }
.docs-page button.secondary { background: #fff; color: #2357c6; }
.docs-page button.link { background: none; border: none; color: #2357c6; padding: 0; text-align: left; }
.docs-page button.link.current { font-weight: 600; }
.docs { display: grid; grid-template-columns: 300px 1fr; gap: 1.25rem; align-items: start; }
.docs .panel { border: 1px solid #dde2ea; border-radius: 8px; padding: .9rem 1rem; margin-bottom: 1rem; background: #fff; }
.docs form.panel { display: flex; flex-direction: column; gap: .6rem; }
.docs form.panel label { display: flex; flex-direction: column; gap: .25rem; font-size: .9rem; }
.docs ul.list { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: .5rem; }
.docs .badge { display: inline-block; padding: .05rem .45rem; border-radius: 999px; font-size: .78rem; background: #eef1f6; }
.docs .badge.completed { background: #e3f4e1; color: #276221; }
.docs .badge.failed { background: #fde5e5; color: #9b1c1c; }
.docs .badge.in_progress { background: #e7eefc; color: #1e429f; }
.docs .badge.processing { background: #e7eefc; color: #1e429f; }
.docs .intro { max-width: 40rem; }
.docs .log ol { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: .35rem; }
.docs .log li { padding: .35rem .6rem; border-radius: 6px; font-size: .92rem; }
.docs .log li.say { background: #f3f5f9; }
.docs .log li.user { background: #e7eefc; }
.docs .log li.tool { color: #4a5363; border-left: 3px solid #c4ccd8; border-radius: 0; }
.docs .log li.tool.write { border-left-color: #2357c6; }
.docs .log li.tool::before { content: '⚙ '; }
.docs .log li.done { color: #276221; font-weight: 600; }
.docs .log .busy { margin: .5rem 0 0; color: #1e429f; }
.docs .extraction-head { display: flex; justify-content: space-between; align-items: start; gap: 1rem; margin-bottom: .6rem; }
.docs table { border-collapse: collapse; width: 100%; font-size: .9rem; margin: .6rem 0; }
.docs th, .docs td { text-align: left; padding: .35rem .55rem; border-bottom: 1px solid #e6e9ef; vertical-align: top; }
.docs td.num, .docs th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.docs tr.low td { background: #fff4d6; }
.docs .low-badge { background: #f1b44c; color: #5a3a00; margin-left: .4rem; }
.docs code { background: #f3f5f9; padding: .05rem .3rem; border-radius: 4px; font-size: .85rem; }
.docs form.correct { display: flex; flex-direction: column; gap: .3rem; margin: .8rem 0; }
.docs form.correct .row { display: flex; gap: .5rem; }
.docs .retry { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; }
.docs form.correct input { flex: 1; }
.docs details summary { cursor: pointer; color: #2357c6; }
.docs ol.history { font-size: .85rem; }
.docs-page .login { max-width: 26rem; display: flex; flex-direction: column; gap: .6rem; }
/* A phone or a narrow side window: one column, the extraction under the form and the list. */
@media (max-width: 760px) {
  .docs { grid-template-columns: minmax(0, 1fr); }
  .docs .panel { min-width: 0; overflow-wrap: anywhere; }
  .docs .panel button { overflow-wrap: normal; white-space: nowrap; }
  .docs form.correct .row { flex-wrap: wrap; }
  .docs form.correct input { min-width: 12rem; }
  .docs table { display: block; overflow-x: auto; }
}
`;
