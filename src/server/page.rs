//! The preview's HTML: the games' index, and a game's page — its built
//! sheets with a bar, the decks' verdicts, the diagnostics overlay and the
//! live-reload script laid over them (all hidden when printing).

use super::parts::Sheets;
use super::{GameEntry, Problem, Status};
use crate::emit::sheets::icons::escape_into;
use crate::emit::sheets::{fit_script_source, page_policy, script_source};

pub(super) fn esc(s: &str) -> String {
    let mut out = String::new();
    escape_into(s, &mut out);
    out
}

/// The preview's own style. (Not `content-visibility: auto` on the
/// sheets: the fit script's first pass reads every card's size, which
/// makes the browser lay out each skipped page on its own, one after
/// another, so a large game's page would load far slower than with
/// nothing skipped.)
const STYLE: &str = r"<style>
.carta-live { font: 14px/1.4 system-ui, sans-serif; }
#carta-bar { position: sticky; top: 0; z-index: 10; background: #222; color: #eee; padding: 6px 12px; display: flex; gap: 16px; align-items: baseline; }
#carta-bar a { color: #9cf; }
#carta-decks { margin: 12px; padding: 8px 12px; border: 1px solid #ccc; background: #fafafa; }
#carta-decks .legal { color: #176f2c; } #carta-decks .illegal { color: #a4161a; }
#carta-overlay { position: fixed; inset: 40px 5% auto 5%; max-height: 80vh; overflow: auto; z-index: 20; background: #2b0d0d; color: #fdd; border: 2px solid #e55; border-radius: 6px; padding: 12px 16px; box-shadow: 0 4px 24px #0008; }
#carta-overlay code { color: #fff; } #carta-overlay .help { color: #fc9; }
#carta-warnings { position: fixed; right: 12px; bottom: 12px; max-width: min(720px, 90vw); max-height: 50vh; overflow: auto; z-index: 20; background: #fff8e1; color: #3e2c00; border: 2px solid #e0a800; border-radius: 6px; padding: 6px 12px; box-shadow: 0 2px 12px #0006; }
#carta-warnings summary { cursor: pointer; font-weight: bold; } #carta-warnings .help { color: #6b4e00; }
@media print { .carta-live { display: none !important; } }
</style>";

/// The live-update script: when the generation moves past the one this
/// page shows, ask the server for the names of the sheets' parts
/// (`.carta-parts`, see [`super::parts`]) and replace only the parts whose
/// names changed — fetched by name, fitted by the sheets' fit script
/// (`window.cartaFit`), the scroll position kept — and the bar, overlay and
/// decks above them. A new frame (the game's CSS) reloads the page; many
/// changed parts, or parts gone by the time they are asked for, bring the
/// whole page in place of this one instead. Server-sent events reconnect
/// by themselves; a change during an update is applied after it.
const LIVE: &str = r"(function () {
  var seen = GENERATION, frame = 'FRAME', busy = false, again = false, MARK = 'data-carta-part', shown = null;
  function json(url) {
    return fetch(url, { cache: 'no-store' }).then(function (r) { if (!r.ok) throw r; return r.json(); });
  }
  function top(html) {
    var w = document.getElementById('carta-warnings'), open = w && w.open;
    document.querySelectorAll('body > .carta-live:not(script)').forEach(function (e) { e.remove(); });
    document.body.insertAdjacentHTML('afterbegin', html);
    w = document.getElementById('carta-warnings');
    if (w && open) w.open = true;
  }
  function whole() {
    return fetch(location.href, { cache: 'no-store' }).then(function (r) { if (!r.ok) throw r; return r.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, 'text/html');
      if (doc.head.innerHTML !== document.head.innerHTML) { location.reload(); return; }
      var x = window.scrollX, y = window.scrollY, w = document.getElementById('carta-warnings'), open = w && w.open;
      document.body.replaceWith(document.adoptNode(doc.body));
      w = document.getElementById('carta-warnings');
      if (w && open) w.open = true;
      document.body.querySelectorAll('script:not([data-carta-live])').forEach(function (old) {
        var s = document.createElement('script');
        s.textContent = old.textContent;
        old.replaceWith(s);
      });
      window.scrollTo(x, y);
    });
  }
  function put(want, have, got) {
    var x = window.scrollX, y = window.scrollY, fresh = [], last = null;
    want.forEach(function (h, i) {
      var old = have[i];
      if (old && old.getAttribute(MARK) === h) { last = old; return; }
      var t = document.createElement('template');
      t.innerHTML = got[h];
      var e = t.content.firstElementChild;
      if (old) old.replaceWith(e); else last.after(e);
      fresh.push(e);
      last = e;
    });
    for (var i = want.length; i < have.length; i++) have[i].remove();
    // With no part new, the fit script still reports again what it knows
    // (the server forgot it when it rebuilt).
    if (window.cartaFit) window.cartaFit(fresh);
    window.scrollTo(x, y);
  }
  function parts(now) {
    if (now.frame !== frame) { location.reload(); return; }
    var have = Array.prototype.filter.call(document.body.children, function (e) { return e.hasAttribute(MARK); });
    var changed = now.parts.filter(function (h, i) { return !have[i] || have[i].getAttribute(MARK) !== h; });
    if (changed.length > 64 || (!have.length && now.parts.length)) return whole();
    var asked = changed.length ? json('.carta-parts?h=' + changed.join(',')) : Promise.resolve({});
    return asked.then(function (got) {
      if (changed.some(function (h) { return typeof got[h] !== 'string'; })) return whole();
      put(now.parts, have, got);
      // The bar, overlay and decks are put in place only when they changed.
      if (now.top !== shown) { top(now.top); shown = now.top; }
    });
  }
  function update() {
    busy = true;
    (frame ? json('.carta-parts').then(parts) : whole()).catch(function () { location.reload(); }).then(function () {
      busy = false;
      if (again) { again = false; update(); }
    });
  }
  // A page left closes its stream (see the builder's `stream`).
  var es = null;
  function connect() {
    es = new EventSource('/events');
    es.onmessage = function (e) {
      var g = Number(e.data);
      if (g !== seen) { seen = g; if (busy) again = true; else update(); }
    };
  }
  connect();
  addEventListener('pagehide', function () { es.close(); });
  addEventListener('pageshow', function (e) { if (e.persisted) connect(); });
})();";

/// The text of the live-update script of a page showing `generation` in
/// `frame` (the name of its sheets' frame; empty without sheets).
fn live(generation: u64, frame: &str) -> String {
    LIVE.replace("GENERATION", &generation.to_string())
        .replace("FRAME", frame)
}

/// The live-update script element of such a page.
fn script(generation: u64, frame: &str) -> String {
    format!(
        "<script data-carta-live>{}</script>",
        live(generation, frame)
    )
}

/// The Content-Security-Policy of a preview page showing `generation` in
/// `frame`: its scripts are the live-update script and the sheets' fit
/// script, by their hashes; a script a template wrote does not run, so it
/// cannot drive the server's API from the server's own origin.
pub(super) fn policy(generation: u64, frame: &str) -> String {
    page_policy(&format!(
        "{} {}",
        script_source(&live(generation, frame)),
        fit_script_source()
    ))
}

fn problem_line(p: &Problem) -> String {
    let mut s = String::from("<li>");
    if let Some(place) = &p.place {
        s.push_str(&format!("<code>{}</code> ", esc(place)));
    }
    s.push_str(&format!(
        "<b>{}[{}]</b> {}",
        esc(&p.severity),
        esc(&p.code),
        esc(&p.message)
    ));
    if let Some(help) = &p.help {
        s.push_str(&format!("<div class=\"help\">help: {}</div>", esc(help)));
    }
    s.push_str("</li>");
    s
}

/// The overlay, when the last check found errors: the errors first, then
/// the warnings, and advice folded away under them. Without errors, the
/// warnings (text that does not fit its box among them) are a folded
/// panel in a corner, over the sheets they are about.
fn overlay(status: &Status) -> String {
    let of = |severity: &str| -> Vec<&Problem> {
        status
            .problems
            .iter()
            .filter(|p| p.severity == severity)
            .collect()
    };
    let (errors, warnings, advice) = (of("error"), of("warning"), of("advice"));
    if errors.is_empty() {
        return warnings_panel(&warnings);
    }
    let items: String = errors
        .iter()
        .chain(&warnings)
        .map(|p| problem_line(p))
        .collect();
    let folded = if advice.is_empty() {
        String::new()
    } else {
        let lines: String = advice.iter().map(|p| problem_line(p)).collect();
        format!(
            "<details><summary>{} advice</summary><ul>{lines}</ul></details>",
            advice.len()
        )
    };
    format!(
        "<div id=\"carta-overlay\" class=\"carta-live\"><h2>{} error{} — the page shows the last good build</h2><ul>{items}</ul>{folded}</div>",
        errors.len(),
        if errors.len() == 1 { "" } else { "s" }
    )
}

/// The warnings of a clean round, folded under their count.
fn warnings_panel(warnings: &[&Problem]) -> String {
    if warnings.is_empty() {
        return String::new();
    }
    let items: String = warnings.iter().map(|p| problem_line(p)).collect();
    format!(
        "<details id=\"carta-warnings\" class=\"carta-live\"><summary>{} warning{}</summary><ul>{items}</ul></details>",
        warnings.len(),
        if warnings.len() == 1 { "" } else { "s" }
    )
}

fn bar(status: &Status, title: &str) -> String {
    let links: String = status
        .games
        .iter()
        .map(|g| format!(" <a href=\"/g/{0}/\">{1}</a>", esc(&g.id), esc(&g.name)))
        .collect();
    format!(
        "<div id=\"carta-bar\" class=\"carta-live\"><b>{}</b><span>carta watch · games:{links}</span><a href=\"/play/\">deck builder</a></div>",
        esc(title)
    )
}

fn decks(game: &GameEntry) -> String {
    if game.decks.is_empty() {
        return String::new();
    }
    let mut s = String::from("<section id=\"carta-decks\" class=\"carta-live\"><h2>Decks</h2><ul>");
    for d in &game.decks {
        if d.problems.is_empty() {
            s.push_str(&format!(
                "<li><code>{}</code>: <span class=\"legal\">legal</span></li>",
                esc(&d.file)
            ));
        } else {
            let items: String = d.problems.iter().map(problem_line).collect();
            s.push_str(&format!(
                "<li><code>{}</code>: <span class=\"illegal\">illegal</span><ul>{items}</ul></li>",
                esc(&d.file)
            ));
        }
    }
    s.push_str("</ul></section>");
    s
}

/// The index: a link to each game's page.
pub(super) fn index(status: &Status) -> String {
    let games: String = status
        .games
        .iter()
        .map(|g| {
            format!(
                "<li><a href=\"/g/{0}/\">{1}</a></li>",
                esc(&g.id),
                esc(&g.name)
            )
        })
        .collect();
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>carta watch</title>{STYLE}</head>\
         <body class=\"carta-live\">{}{}<ul>{games}</ul>{}</body></html>",
        bar(status, "carta watch"),
        overlay(status),
        script(status.generation, "")
    )
}

/// What a game's page shows above its sheets: the bar, the overlay (or
/// the warnings) and the decks.
pub(super) fn top(status: &Status, game: &GameEntry) -> String {
    format!(
        "{}{}{}",
        bar(status, &game.name),
        overlay(status),
        decks(game)
    )
}

/// A game's page: its built sheets (when a build succeeded), each part
/// marked with its name, under the bar and the decks, with the overlay
/// and the live-update script.
pub(super) fn game(status: &Status, game: &GameEntry, sheets: Option<&Sheets>) -> String {
    let top = top(status, game);
    let Some(sheets) = sheets else {
        let tail = script(status.generation, "");
        return format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>{STYLE}</head>\
             <body>{top}<p class=\"carta-live\">No build of this game has succeeded yet.</p>{tail}</body></html>",
            esc(&game.name)
        );
    };
    let head = sheets.head();
    let mut page = String::with_capacity(sheets.len() + top.len() + STYLE.len() + LIVE.len() + 200);
    match head.find("</head>") {
        Some(i) => {
            page.push_str(&head[..i]);
            // The meta asks the sheets' fit script to post what does not fit.
            page.push_str(STYLE);
            page.push_str("<meta name=\"carta-report\">");
            page.push_str(&head[i..]);
        }
        None => page.push_str(head),
    }
    page.push_str(&top);
    sheets.write_parts(&mut page);
    page.push_str(sheets.tail());
    page.push_str(&script(status.generation, sheets.frame()));
    page.push_str("</body>\n</html>\n");
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(severity: &str, code: &str) -> Problem {
        Problem {
            severity: severity.to_owned(),
            code: code.to_owned(),
            message: format!("{code} happened"),
            place: None,
            help: None,
        }
    }

    #[test]
    fn the_overlay_lists_errors_then_warnings_and_folds_advice_away() {
        let status = Status {
            problems: vec![
                problem("advice", "rules::source"),
                problem("warning", "i18n::missing"),
                problem("error", "schema::type"),
                problem("advice", "rules::source"),
            ],
            ..Status::default()
        };
        let html = overlay(&status);
        assert!(html.contains("<h2>1 error "), "{html}");
        let at = |code: &str| html.find(code).unwrap_or_else(|| panic!("{code}: {html}"));
        assert!(at("schema::type") < at("i18n::missing"), "{html}");
        let details = html
            .find("<details><summary>2 advice</summary>")
            .expect(&html);
        assert!(
            at("i18n::missing") < details && details < at("rules::source"),
            "{html}"
        );
    }

    #[test]
    fn without_errors_there_is_no_overlay_but_the_warnings_folded_in_a_corner() {
        let status = Status {
            problems: vec![
                problem("warning", "sheets::overflow"),
                problem("advice", "rules::source"),
            ],
            ..Status::default()
        };
        let html = overlay(&status);
        assert!(!html.contains("carta-overlay"), "{html}");
        assert!(
            html.starts_with(
                "<details id=\"carta-warnings\" class=\"carta-live\"><summary>1 warning</summary>"
            ) && html.contains("sheets::overflow")
                && !html.contains("rules::source"),
            "{html}"
        );
        let quiet = Status {
            problems: vec![problem("advice", "rules::source")],
            ..Status::default()
        };
        assert_eq!(overlay(&quiet), "");
    }

    #[test]
    fn a_game_s_page_asks_its_fit_script_to_report() {
        let entry = GameEntry {
            id: "mini".into(),
            name: "Mini".into(),
            decks: Vec::new(),
        };
        let sheets = Sheets::new(
            "<html><head><title>x</title></head><body><p>sheets</p></body></html>".to_owned(),
        );
        let page = game(&Status::default(), &entry, Some(&sheets));
        let head = &page[..page.find("</head>").unwrap()];
        assert!(head.contains("<meta name=\"carta-report\">"), "{page}");
    }
}
