/// The page's one style sheet, inline: system fonts only (nothing is loaded), the person's light or dark setting
/// (`prefers-color-scheme`), and text contrast of at least 4.5:1 (WCAG AA) on every background it sits on, the
/// band cells included. The bands are one blue, lighter to darker (brighter in the dark): a scale of the
/// person's own days, never a verdict, so no red, no green.
enum DashboardStyle {
    /// Categorical colors for the tools of the chart (no red: a tool's color says nothing about it).
    static let toolColors = ["#4c78a8", "#54a3a0", "#b279a2", "#d4a82a", "#9d755d", "#7f8c99", "#6f9f4a", "#8c6bb1"]

    static let css = """
        :root{color-scheme:light dark;--bg:#f7f7f4;--card:#ffffff;--text:#1b2129;--muted:#4f5863;--line:#d9dcdf;\
        --accent:#3a76b5;--bar:#e3e6ea;--z:#e9ecef;--zt:#1b2129;--l:#d2e3f3;--lt:#1b2129;--a:#9cc2e5;--at:#10202f;\
        --m:#3a76b5;--mt:#ffffff;--mm:#1a4a7d;--mmt:#ffffff;--glass:#8f9aa6;--water:#5f9fd6}
        @media (prefers-color-scheme:dark){:root{--bg:#14181d;--card:#1c2128;--text:#e8ebee;--muted:#a9b2bc;\
        --line:#333a43;--accent:#7aaede;--bar:#2a3038;--z:#262c34;--zt:#e8ebee;--l:#203c58;--lt:#e8ebee;--a:#2f6496;\
        --at:#ffffff;--m:#7aaede;--mt:#0b1620;--mm:#bcd9f4;--mmt:#0b1620;--glass:#6d7884;--water:#4a8ccc}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--text);font:15px/1.45 system-ui,-apple-system,"Segoe UI",\
        Roboto,"Helvetica Neue",Arial,sans-serif;font-variant-numeric:tabular-nums}
        header,main,footer{max-width:1100px;margin:0 auto;padding:0 20px}
        header{padding-top:24px}
        h1{font-size:22px;margin:0}
        h2{font-size:17px;margin:0 0 12px}
        h3{font-size:15px;margin:14px 0 6px}
        .sub,.note,footer,.legend,.muted{color:var(--muted)}
        .sub{margin:4px 0 0}
        main{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:16px;padding-top:16px;\
        padding-bottom:16px}
        section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 18px}
        .wide{grid-column:1/-1}
        .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(190px,1fr));gap:12px}
        .card{border:1px solid var(--line);border-radius:8px;padding:12px 14px}
        .label{color:var(--muted);font-size:13px;text-transform:uppercase;letter-spacing:.04em}
        .big{font-size:30px;font-weight:600;line-height:1.2;margin:4px 0}
        .note{font-size:13px;margin:6px 0 0}
        table{border-collapse:collapse;width:100%}
        th,td{padding:4px 6px;text-align:right;border-bottom:1px solid var(--line);font-size:14px}
        th:first-child,td:first-child{text-align:left}
        th{color:var(--muted);font-weight:600}
        table.calendar{table-layout:fixed}
        table.calendar td,table.calendar th{text-align:center;border:0;padding:2px}
        table.calendar td.day{height:54px;border-radius:6px;vertical-align:top;padding:4px}
        td.day .d{display:block;font-size:12px;text-align:left}
        td.day data{display:block;font-weight:600;font-size:14px;margin-top:4px}
        .band-zero{background:var(--z);color:var(--zt)}
        .band-less{background:var(--l);color:var(--lt)}
        .band-average{background:var(--a);color:var(--at)}
        .band-more{background:var(--m);color:var(--mt)}
        .band-much-more{background:var(--mm);color:var(--mmt)}
        td.future{color:var(--muted)}
        .mark{font-size:11px;display:block}
        .legend{list-style:none;padding:0;margin:10px 0 0;display:flex;flex-wrap:wrap;gap:6px 14px;font-size:13px}
        .legend li{display:flex;align-items:center;gap:6px}
        .swatch{display:inline-block;width:14px;height:14px;border-radius:3px;border:1px solid var(--line)}
        .bottle{display:flex;gap:18px;align-items:center}
        .bottle svg{flex:none}
        .limit{margin:8px 0 12px}
        .limit .row{display:flex;justify-content:space-between;gap:10px;flex-wrap:wrap}
        svg text{fill:var(--muted);font-size:11px}
        .chart{width:100%;height:auto;display:block}
        .keys{list-style:none;padding:0;margin:8px 0;display:flex;flex-wrap:wrap;gap:6px 14px;font-size:13px}
        .keys li{display:flex;align-items:center;gap:6px}
        .px-air{fill:var(--bar)}
        .px-used{fill:var(--accent)}
        .px-glass{fill:var(--glass)}
        .px-water{fill:var(--water)}
        .axis{stroke:var(--line)}
        a{color:var(--accent)}
        footer{padding-bottom:28px;font-size:13px}
        """
}
