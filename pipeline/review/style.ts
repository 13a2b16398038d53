// The stylesheet shared by the static review site and the review server's page. Korean, Chinese
// and Japanese text is set in Noto CJK (Debian's fonts-noto-cjk, installed by `make setup`), with
// the platform's own CJK fonts as fallbacks, so no glyph shows as tofu; math uses KaTeX's own fonts.
export const CJK_SANS = '"Noto Sans CJK KR", "Noto Sans KR", "Noto Sans CJK SC", "Noto Sans CJK JP", "Apple SD Gothic Neo", "Malgun Gothic", "Microsoft YaHei", sans-serif';
export const CJK_SERIF = '"Noto Serif CJK KR", "Noto Serif KR", "Noto Serif CJK SC", "Batang", serif';

export const REVIEW_CSS = `
:root { --ink: #1d2433; --muted: #667085; --line: #d0d5dd; --bg: #f6f7f9; --region: #e0241b; --ok: #1a7f37; --bad: #b42318; --warn: #b54708; }
* { box-sizing: border-box; }
body { margin: 0; font-family: ${CJK_SANS}; color: var(--ink); background: var(--bg); line-height: 1.55; }
main { max-width: 1280px; margin: 0 auto; padding: 16px 20px 64px; }
h1 { font-size: 1.4rem; margin: 8px 0 12px; } h2 { font-size: 1.15rem; margin: 24px 0 8px; }
a { color: #1849a9; }
table { border-collapse: collapse; width: 100%; background: #fff; font-size: .92rem; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f5; } td.num { text-align: right; font-variant-numeric: tabular-nums; } tbody td:first-child { white-space: nowrap; }
tr.has-problems td:first-child { border-left: 4px solid var(--warn); } tr.failed td:first-child, tr.needs-review td:first-child { border-left: 4px solid var(--bad); }
td.paper-status { white-space: nowrap; } tr.needs-review td.paper-status, .problems .needs-review b { color: var(--bad); font-weight: 600; }
.structure.needs-review { background: #fef3f2; border: 1px solid #fda29b; border-left: 6px solid var(--bad); border-radius: 8px; padding: 8px 14px; margin: 8px 0 16px; }
.structure.needs-review h2 { margin: 2px 0 4px; color: var(--bad); } .structure .reasons { margin: 4px 0; padding-left: 18px; } .structure p { margin: 4px 0; }
.toc a.unsure { color: var(--bad); font-weight: 700; } .toc a.unsure::after { content: "?"; }
.item.unsure { border-left: 6px dashed var(--bad); }
.flag.unsure, .flag.needs-review { background: #fee4e2; color: var(--bad); }
.summary { display: flex; gap: 18px; flex-wrap: wrap; margin: 8px 0 16px; }
.summary div { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; }
.summary b { display: block; font-size: 1.2rem; }
.problems li { margin: 2px 0; }
.item { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 14px 0; padding: 10px 14px; scroll-margin-top: 12px; }
.item:focus, .item.current { outline: 3px solid #2e90fa; outline-offset: 1px; }
.item.status-verified { border-left: 6px solid var(--ok); } .item.status-rejected { border-left: 6px solid var(--bad); opacity: .8; }
.item header { display: flex; align-items: baseline; gap: 10px; flex-wrap: wrap; border-bottom: 1px solid #eaecf0; padding-bottom: 6px; }
.item header .anchor { font-weight: 700; font-size: 1.1rem; text-decoration: none; }
.item header .paper { color: var(--muted); font-size: .85rem; }
.flag { background: #fef0c7; color: var(--warn); border-radius: 4px; padding: 0 6px; font-size: .8rem; }
.review { margin-left: auto; font-size: .85rem; }
.status { border-radius: 10px; padding: 1px 8px; font-weight: 600; background: #eaecf0; }
.status-verified .status, .status.status-verified { background: #d1fadf; color: var(--ok); }
.status.status-rejected { background: #fee4e2; color: var(--bad); }
.history { margin: 4px 0 0; padding-left: 18px; color: var(--muted); }
.original pre { white-space: pre-wrap; font-size: .8rem; background: var(--bg); padding: 4px; }
.item-body { display: grid; grid-template-columns: minmax(0, 1fr) minmax(280px, 460px); gap: 18px; margin-top: 8px; }
@media (max-width: 900px) { .item-body { grid-template-columns: 1fr; } }
.stem { font-size: 1.02rem; } .stem p { margin: .3em 0; } .stem .katex-display { overflow-x: auto; overflow-y: hidden; padding: 2px 0; }
.options { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 4px 22px; }
.options .label { font-weight: 600; margin-right: 2px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: .9rem; margin: 10px 0; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; }
.tags { margin: 0; padding-left: 16px; } .trees { margin: 2px 0 0; color: var(--muted); font-size: .8rem; }
.actions { display: flex; gap: 6px; flex-wrap: wrap; }
.actions button { font: inherit; font-size: .85rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; padding: 2px 8px; cursor: pointer; }
.actions button:hover { background: #eef1f5; } .actions kbd { margin-left: 2px; }
.actions .action-verified { border-color: var(--ok); color: var(--ok); } .actions .action-rejected { border-color: var(--bad); color: var(--bad); }
.crops { display: flex; flex-wrap: wrap; gap: 8px; } .crop { margin: 0; } .crop img { max-width: 260px; max-height: 220px; border: 1px solid var(--line); }
.crop figcaption, .page figcaption { font-size: .75rem; color: var(--muted); }
.diagnostics { font-size: .85rem; padding-left: 18px; margin: 6px 0; }
.severity-error { color: var(--bad); } .severity-warning { color: var(--warn); } .severity-info { color: var(--muted); }
.page { margin: 0 0 8px; }
.page-frame { position: relative; width: 100%; border: 1px solid var(--line); background: #fff; }
.page-frame img { display: block; width: 100%; height: 100%; }
/* The box is drawn outside the question's bbox (an outline set off from it), so its first and last lines stay visible. */
.region { position: absolute; outline: 3px solid var(--region); outline-offset: 4px; background: rgba(224, 36, 27, .05); pointer-events: none; }
.katex { font-size: 1.08em; }
.serif { font-family: ${CJK_SERIF}; }
`;
