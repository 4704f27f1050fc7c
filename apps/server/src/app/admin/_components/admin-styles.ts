// The admin area's stylesheet, inlined by its layout: a handful of rules, no CSS pipeline.
export const ADMIN_CSS = `
.admin { max-width: 1100px; margin: 0 auto; color: #1d2433; }
.admin a { color: #2357c6; }
.admin header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; border-bottom: 1px solid #dde2ea; padding-bottom: .75rem; margin-bottom: 1.25rem; }
.admin header strong { font-size: 1.1rem; }
.admin header nav { display: flex; flex-wrap: wrap; gap: 1rem; flex: 1 1 auto; }
.admin header form { margin: 0; }
.admin h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
.admin h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
.admin .muted { color: #667085; }
.admin .error { background: #fdecec; border: 1px solid #f5b5b5; padding: .75rem 1rem; border-radius: 6px; }
.admin .filters { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin-bottom: 1rem; }
.admin .filters label { display: flex; flex-direction: column; font-size: .85rem; gap: .2rem; }
.admin input, .admin select, .admin button { font: inherit; padding: .35rem .5rem; border: 1px solid #c4ccd8; border-radius: 5px; background: #fff; }
.admin button { background: #2357c6; color: #fff; border-color: #2357c6; cursor: pointer; }
.admin button.link { background: none; color: #2357c6; border: none; padding: 0; }
.admin table { border-collapse: collapse; width: 100%; font-size: .9rem; }
.admin th, .admin td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #e6e9ef; vertical-align: top; }
.admin td.num, .admin th.num { text-align: right; font-variant-numeric: tabular-nums; }
.admin tfoot td { font-weight: 600; border-top: 2px solid #c4ccd8; }
.admin .summary { display: flex; flex-wrap: wrap; gap: 1.5rem; margin: .5rem 0 1rem; }
.admin .summary div { display: flex; flex-direction: column; }
.admin .summary b { font-size: 1.25rem; }
.admin .chart svg { width: 100%; height: auto; }
.admin .chart svg.narrow { display: none; }
.admin .chart .grid { stroke: #e6e9ef; }
.admin .chart .baseline { stroke: #98a2b3; }
.admin .chart .axis { font-size: 11px; fill: #667085; }
.admin .legend { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; list-style: none; padding: 0; font-size: .85rem; }
.admin .swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .35rem; vertical-align: -1px; }
.admin .kpis { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: .75rem; margin-bottom: 1rem; }
.admin .kpi { border: 1px solid #dde2ea; border-radius: 8px; padding: .6rem .8rem; }
.admin .kpi b { display: block; font-size: 1.3rem; }
.admin .kpi.alert { border-color: #e15759; background: #fdf3f3; }
.admin .kpi.ok { border-color: #59a14f; }
.admin .kpi.few b { color: #667085; }
.admin p.note { font-size: .85rem; max-width: 60rem; }
.admin .badge { display: inline-block; padding: .05rem .45rem; border-radius: 999px; font-size: .8rem; background: #eef1f6; }
.admin .badge.completed, .admin .badge.success, .admin .badge.passed { background: #e3f4e1; color: #276221; }
.admin .badge.failed, .admin .badge.failure, .admin .badge.interrupted { background: #fde5e5; color: #9b1c1c; }
.admin .badge.executing, .admin .badge.active, .admin .badge.pending { background: #e7eefc; color: #1e429f; }
.admin .badge.cancelled { background: #eceef2; color: #4a5363; }
.admin .badge.needs_user_input { background: #fff4d6; color: #7a4f00; }
.admin ol.steps { list-style: none; padding: 0; }
.admin ol.steps > li { border: 1px solid #dde2ea; border-radius: 8px; padding: .75rem 1rem; margin-bottom: .75rem; }
.admin .step-head { display: flex; flex-wrap: wrap; gap: .75rem; align-items: baseline; margin-bottom: .4rem; }
.admin dl.fields { display: grid; grid-template-columns: 9rem minmax(0, 1fr); gap: .25rem .75rem; margin: 0; }
.admin dl.fields dt { color: #667085; }
.admin dl.fields dd { margin: 0; overflow-wrap: anywhere; }
.admin code { background: #f3f5f9; padding: .05rem .3rem; border-radius: 4px; font-size: .85rem; overflow-wrap: anywhere; }
.admin code.word { overflow-wrap: normal; white-space: nowrap; }
.admin .login { max-width: 26rem; display: flex; flex-direction: column; gap: .6rem; }
.admin .notice { background: #e3f4e1; border: 1px solid #a6d49f; padding: .75rem 1rem; border-radius: 6px; }
.admin .filters label.grow { flex: 1; min-width: 18rem; }
.admin input.short { width: 6rem; }
.admin input, .admin select, .admin textarea { box-sizing: border-box; max-width: 100%; }
.admin textarea { font: inherit; font-family: ui-monospace, monospace; width: 100%; max-width: 32rem; padding: .35rem .5rem; border: 1px solid #c4ccd8; border-radius: 5px; }
.admin button.secondary { background: #fff; color: #2357c6; }
.admin button.danger { background: #b42318; border-color: #b42318; }
.admin td form { margin: 0; }
.admin .row-actions { white-space: nowrap; }
.admin .row-actions form, .admin .row-actions details { display: inline-block; vertical-align: top; margin-right: .4rem; }
.admin details summary { cursor: pointer; color: #2357c6; }
.admin details ul.errors { margin: .3rem 0 0; padding-left: 1rem; font-size: .8rem; max-width: 28rem; }
.admin .job-error { color: #9b1c1c; margin: .3rem 0 0; font-size: .85rem; }
.admin progress { width: 7rem; height: .7rem; vertical-align: middle; accent-color: #2357c6; }
.admin .counts { font-size: .8rem; }
.admin .kpi b.embedder { font-size: 1rem; word-break: break-all; }
.admin table.knowledge td.num, .admin table.knowledge .nowrap { white-space: nowrap; }
.admin table.knowledge td.progress-cell { min-width: 13rem; }
.admin table.knowledge td.errors-cell { min-width: 12rem; }
.admin table.knowledge td a { overflow-wrap: anywhere; }
.admin .badge.running, .admin .badge.queued { background: #e7eefc; color: #1e429f; }
.admin .badge.ready { background: #e3f4e1; color: #276221; }
.admin h1 { overflow-wrap: anywhere; }
.admin code.param { background: #e7eefc; color: #1e429f; }
.admin .param-example { display: inline-block; margin-right: .75rem; }
.admin form.inline { display: inline-flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: 0 .75rem .5rem 0; }
.admin .chart { margin: 0; }
/* Narrow screens: a wide table scrolls inside its own box instead of widening the page, and a
   trace's labels go above their values (beside them, the values wrapped mid-word). */
@media (max-width: 700px) {
  .admin table { display: block; max-width: 100%; overflow-x: auto; }
  .admin dl.fields { grid-template-columns: minmax(0, 1fr); }
  .admin dl.fields dt { margin-top: .3rem; font-size: .85rem; }
  .admin .chart svg.wide { display: none; }
  .admin .chart svg.narrow { display: block; }
}
`;
