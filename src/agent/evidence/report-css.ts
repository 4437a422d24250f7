/** The report's inline stylesheet: no fonts, no images, no external anything; phone width first. */
export const REPORT_CSS = `
:root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--card:#f6f8fa;--ok:#1a7f37;--okbg:#dafbe1;
--bad:#cf222e;--badbg:#ffebe9;--warn:#9a6700;--warnbg:#fff8c5;--info:#0969da;--infobg:#ddf4ff;--code:#eff2f5}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--card:#151b23;
--ok:#3fb950;--okbg:#12261e;--bad:#f85149;--badbg:#2d1214;--warn:#d29922;--warnbg:#2e2410;--info:#4493f8;--infobg:#0c2d4b;--code:#1f2630}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-x:hidden}
main{max-width:980px;margin:0 auto;padding:12px}
h1,h2{line-height:1.25}
h1{font-size:1.5rem;margin:.2rem 0 .5rem}
h2{font-size:1.15rem;margin:1.6rem 0 .6rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{background:var(--code);border-radius:4px;padding:0 .25em;overflow-wrap:anywhere}
pre{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px;overflow-x:auto;max-width:100%;margin:.3rem 0;white-space:pre}
section{min-width:0}
.muted{color:var(--muted)}
.verdict{border-radius:10px;padding:14px 16px;border:2px solid var(--line);background:var(--card)}
.verdict .label{font-size:1.6rem;font-weight:700;text-transform:uppercase;letter-spacing:.03em}
.verdict .reason{font-size:1.05rem;margin:.3rem 0 .6rem;overflow-wrap:anywhere}
.v-verified{border-color:var(--ok);background:var(--okbg)}.v-verified .label{color:var(--ok)}
.v-unverified{border-color:var(--warn);background:var(--warnbg)}.v-unverified .label{color:var(--warn)}
.v-aborted,.v-error{border-color:var(--bad);background:var(--badbg)}.v-aborted .label,.v-error .label{color:var(--bad)}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:0;font-size:.9rem}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
ul.plain{list-style:none;padding:0;margin:0}
.gate{display:flex;gap:8px;align-items:baseline;padding:6px 8px;border-radius:6px;margin:4px 0;border:1px solid var(--line)}
.gate.pass{background:var(--okbg)}.gate.fail{background:var(--badbg);border-color:var(--bad)}
.gate .mark{font-weight:700;flex:none}.gate.pass .mark{color:var(--ok)}.gate.fail .mark{color:var(--bad)}
.gate .name{font-weight:600;flex:none}.gate .detail{min-width:0;overflow-wrap:anywhere}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{border:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:var(--card);white-space:nowrap}
td code{overflow-wrap:anywhere}
@media (max-width:640px){table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%}
table.cards thead{display:none}table.cards tr{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 0}
table.cards td{border:0;padding:2px 8px;text-align:left;display:grid;grid-template-columns:7em minmax(0,1fr);gap:8px;white-space:normal}
table.cards td::before{content:attr(data-label);color:var(--muted);font-size:.85rem}}
td.num{text-align:right;white-space:nowrap}
tr.fail td{background:var(--badbg)}
ol.timeline{list-style:none;padding:0;margin:0}
.turn{border:1px solid var(--line);border-radius:8px;margin:8px 0;padding:8px 10px;background:var(--bg)}
.turn-head{display:flex;flex-wrap:wrap;gap:4px 12px;align-items:baseline;font-size:.9rem}
.turn-head b{font-size:1rem}
.say{margin:.4rem 0;white-space:pre-wrap;overflow-wrap:anywhere}
ul.items{list-style:none;padding:0;margin:.3rem 0 0}
.ev{border-left:3px solid var(--line);padding:3px 8px;margin:4px 0;font-size:.9rem;min-width:0}
.ev .row{display:flex;flex-wrap:wrap;gap:2px 8px;align-items:baseline;min-width:0}
.ev .tool{font-weight:600}
.ev .in{min-width:0}
.ev .why{color:var(--bad);overflow-wrap:anywhere}
.ev.denied{border-left-color:var(--bad);background:var(--badbg)}
.ev.bad{border-left-color:var(--bad);background:var(--badbg)}
.ev.warn{border-left-color:var(--warn);background:var(--warnbg)}
.ev.good{border-left-color:var(--ok)}
.ev.info{border-left-color:var(--info);background:var(--infobg)}
.tag{display:inline-block;font-size:.75rem;font-weight:600;border-radius:10px;padding:0 7px;border:1px solid currentColor}
.tag.deny,.tag.err{color:var(--bad)}.tag.ok{color:var(--ok)}.tag.warn{color:var(--warn)}
details>summary{cursor:pointer;color:var(--muted);font-size:.85rem}
.chart{width:100%;height:140px;display:block;background:var(--card);border:1px solid var(--line);border-radius:6px}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:.85rem;margin:.3rem 0}
.sw{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:middle}
.diff .add{color:var(--ok);background:var(--okbg);display:inline-block;min-width:100%}
.diff .del{color:var(--bad);background:var(--badbg);display:inline-block;min-width:100%}
.diff .hunk{color:var(--info)}
.diff .file{font-weight:700}
footer{margin:2rem 0 1rem;font-size:.8rem;color:var(--muted)}
`;
