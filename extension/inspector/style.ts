/** The inspector's CSS, scoped under .oam-persona; sized for Creator's narrow Inspector panel (~300 px up). */
export const PERSONA_INSPECTOR_STYLE = `
.oam-persona { font-size: 12px; color: var(--color-normal-contrast, #ddd); padding: 4px 0; min-width: 0; overflow-wrap: anywhere; }
.oam-persona [hidden] { display: none !important; }
.oam-persona .row { margin: 6px 0 10px; }
.oam-persona label.title { display: block; font-weight: bold; margin-bottom: 3px; }
.oam-persona .help { color: var(--color-normal-contrast-weakest, #999); font-size: 11px; margin-bottom: 3px; }
.oam-persona input[type=text], .oam-persona textarea, .oam-persona select {
  width: 100%; max-width: 100%; box-sizing: border-box; background: #1e1e1e; color: inherit; border: 1px solid #444;
  border-radius: 3px; padding: 3px 5px; font: inherit; }
.oam-persona textarea { min-height: 44px; resize: vertical; }
.oam-persona .invalid { border-color: #e0554d !important; }
.oam-persona .problem { color: #ff7b72; font-size: 11px; margin-top: 2px; }
.oam-persona .list-item { display: flex; gap: 4px; margin-bottom: 3px; }
.oam-persona .list-item input { flex: 1; min-width: 0; }
.oam-persona button { background: #3a3a3a; color: inherit; border: 1px solid #555; border-radius: 3px; padding: 2px 8px; cursor: pointer; font: inherit; }
.oam-persona button:disabled { opacity: 0.5; cursor: not-allowed; }
.oam-persona button.primary { background: #2f6fb3; border-color: #3c82cc; }
.oam-persona .general, .oam-persona .broken { border: 1px solid #7a3a36; background: #3a2220; padding: 4px 6px; border-radius: 3px; margin-bottom: 8px; }
.oam-persona .broken .note { color: #ccc; }
.oam-persona .broken pre { max-height: 160px; overflow: auto; white-space: pre-wrap; word-break: break-all; background: #1e1e1e;
  border: 1px solid #444; border-radius: 3px; padding: 4px; margin: 4px 0 0; font-size: 11px; }
.oam-persona .meter { border: 1px solid #444; border-radius: 4px; padding: 6px 8px; margin: 10px 0; background: #262626; }
.oam-persona .verdict { margin: 4px 0; line-height: 1.35; }
.oam-persona .meter[data-level=warn] .verdict { color: #d29922; }
.oam-persona .meter[data-level=danger] .verdict, .oam-persona .meter[data-level=over] .verdict,
.oam-persona .meter[data-level=invalid] .verdict { color: #f85149; }
.oam-persona .bar { position: relative; display: flex; height: 12px; background: #3a3a3a; border-radius: 3px; overflow: hidden; margin: 6px 0; }
.oam-persona .bar .seg { height: 100%; flex: none; box-shadow: inset -1px 0 0 #262626; }
.oam-persona .bar .seg.secrets { background-image: repeating-linear-gradient(45deg, transparent 0 3px, rgba(0,0,0,.35) 3px 6px) !important; }
.oam-persona .bar .mark { position: absolute; top: 0; bottom: 0; width: 2px; margin-left: -1px; background: #fff; }
.oam-persona table { width: 100%; border-collapse: collapse; }
.oam-persona td { padding: 1px 0; vertical-align: top; }
.oam-persona td.num { text-align: right; font-variant-numeric: tabular-nums; padding-left: 6px; white-space: nowrap; }
.oam-persona tr.part td:first-child { padding-left: 12px; color: #bbb; }
.oam-persona tr.total td { border-top: 1px solid #444; font-weight: bold; }
.oam-persona .swatch { display: inline-block; width: 8px; height: 8px; border-radius: 2px; margin-right: 5px; }
.oam-persona .note { color: #999; font-size: 11px; margin-top: 4px; }
.oam-persona .npc-choice { margin-top: 4px; display: flex; flex-wrap: wrap; gap: 4px; }
.oam-persona .npc-choice select { flex: 1; width: auto; min-width: 0; }
.oam-persona .npc-choice .problem, .oam-persona .npc-choice .note { flex-basis: 100%; }
.oam-persona .actions { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-top: 8px; }
.oam-persona [data-role=save-status][data-refused] { color: #ff7b72; }
`;
