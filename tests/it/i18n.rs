//! Translations as data: sheets per language, the PO round trip, stale
//! hashes and `i18n update`, and the bundle's reader in a language.

use std::collections::BTreeSet;

use carta::bundle::Bundle;
use serde_json::{Value, json};

use crate::harness::Workspace;

/// The line of `text` that starts with `key`.
fn entry_line<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no entry {key}"))
}

/// The lines that differ between two texts of as many lines: (old, new).
fn changed_lines<'a>(before: &'a str, after: &'a str) -> Vec<(&'a str, &'a str)> {
    before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect()
}

/// Changes one translated source text of intrépidos (an effect), so that
/// its translations turn stale.
fn change_a_source(ws: &Workspace) {
    let file = "cards/intrepidos/acoes/combate.toml";
    let text = ws.read(file);
    ws.write(
        file,
        text.replacen("causa +10 de dano", "causa +15 de dano", 1),
    );
}

/// Runs `carta i18n export GAME --lang LANG -o LANG.po` in `ws` and
/// returns the PO file it wrote.
pub(crate) fn export_po(ws: &Workspace, game: &str, lang: &str) -> String {
    let out = format!("{lang}.po");
    ws.run(["i18n", "export", game, "--lang", lang, "-o", &out])
        .succeeds();
    ws.read(&out)
}

#[test]
fn the_shipped_translations_are_complete_and_current() {
    let ws = Workspace::shipped(&["intrepidos", "zodiacos"]);
    ws.run(["check"])
        .succeeds()
        .stderr_has(": 0 errors, 0 warnings\ntranslated cards: intrepidos en: 76/76, es: 76/76; zodiacos en: 60/60\n");
}

#[test]
fn build_lang_prints_each_language_in_its_folder_with_fallback_marked() {
    let ws = Workspace::shipped(&["intrepidos"]);
    // One card loses its English name: it prints in Portuguese, and the
    // cover says so.
    let en = ws.read("cards/intrepidos/i18n/en.toml");
    let frixo = entry_line(&en, "name = { text = \"King Phrixus\"");
    ws.write(
        "cards/intrepidos/i18n/en.toml",
        en.replacen(&format!("{frixo}\n"), "", 1),
    );
    ws.run(["build", "--lang", "en", "--lang", "es"])
        .succeeds()
        .stderr_has("card `rei-frixo` has no en translation of `name`");
    let source = ws.read("build/intrepidos/sheets/index.html");
    let en = ws.read("build/intrepidos/sheets/en/index.html");
    let es = ws.read("build/intrepidos/sheets/es/index.html");
    assert!(source.contains("<html lang=\"pt-BR\""));
    assert!(en.contains("<html lang=\"en\""));
    assert!(es.contains("<html lang=\"es\""));
    assert!(en.contains("Zodiac") && en.contains("Poisoned Dagger") && en.contains("Astral Enemy"));
    assert!(es.contains("Daga Envenenada") && es.contains("Enemigo Astral"));
    assert!(
        !en.contains("Adaga Envenenada"),
        "translated text replaces the source"
    );
    assert!(
        en.contains("Rei Frixo"),
        "an untranslated name falls back to the source"
    );
    assert!(en.contains("Untranslated, printed in pt-BR: 1 string (cards/rei-frixo/name)"));
    assert!(!es.contains("Untranslated"));
}

#[test]
fn print_languages_in_the_manifest_and_unknown_languages() {
    let ws = Workspace::shipped(&["zodiacos"]);
    let manifest = ws.read("cards/zodiacos/game.toml");
    ws.write(
        "cards/zodiacos/game.toml",
        manifest.replacen("[print]\n", "[print]\nlanguages = [\"en\"]\n", 1),
    );
    ws.run(["build"]).succeeds();
    assert!(
        ws.read("build/zodiacos/sheets/en/index.html")
            .contains("Jack of Water")
    );
    ws.run(["build", "--lang", "fr"])
        .fails()
        .stderr_has("game `zodiacos` has no language `fr` to print");
}

#[test]
fn a_po_round_trip_changes_only_the_translated_strings() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let before = ws.read("cards/intrepidos/i18n/en.toml");
    let po = export_po(&ws, "intrepidos", "en");
    assert!(po.contains("msgctxt \"cards/cerco/effect\""));
    assert!(po.contains("\"Language: en\\n\""));
    // Untouched, the file imports to nothing.
    ws.run(["i18n", "import", "intrepidos", "en.po"])
        .succeeds()
        .stderr_has("nothing to import");
    assert_eq!(ws.read("cards/intrepidos/i18n/en.toml"), before);
    // A translator rewords one string.
    let edited = po.replacen("msgstr \"Siege\"", "msgstr \"Besieged\"", 1);
    assert_ne!(edited, po);
    ws.write("en.po", edited);
    ws.run(["i18n", "import", "intrepidos", "en.po"])
        .succeeds()
        .stderr_has("imported 1 change into cards/intrepidos/i18n/en.toml");
    let after = ws.read("cards/intrepidos/i18n/en.toml");
    let changed = changed_lines(&before, &after);
    assert_eq!(before.lines().count(), after.lines().count());
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(
        changed[0].1.replace("Besieged", "Siege"),
        changed[0].0,
        "only the text changed"
    );
    // A template phrase travels the same way.
    let vida = "msgctxt \"phrases/Vida\"\nmsgid \"Vida\"\nmsgstr \"Health\"";
    assert!(po.contains(vida), "the export carries the template phrases");
    ws.write("en.po", po.replacen(vida, &vida.replace("Health", "HP"), 1));
    ws.run(["i18n", "import", "intrepidos", "en.po"])
        .succeeds()
        .stderr_has("imported 2 changes");
    let last = ws.read("cards/intrepidos/i18n/en.toml");
    let changed = changed_lines(&before, &last);
    assert_eq!(
        changed.len(),
        1,
        "the exported PO is the original: {changed:?}"
    );
    assert_eq!(changed[0].1, changed[0].0.replace("\"Health\"", "\"HP\""));
    ws.run(["check", "intrepidos"])
        .succeeds()
        .stderr_has("0 warnings");
}

#[test]
fn a_changed_source_makes_its_translation_stale_until_update() {
    let ws = Workspace::shipped(&["intrepidos"]);
    change_a_source(&ws);
    let run = ws
        .run(["--message-format", "json", "check", "intrepidos"])
        .succeeds();
    let stale: Vec<Value> = run
        .json()
        .into_iter()
        .filter(|d| d["code"] == "i18n::stale")
        .collect();
    assert_eq!(stale.len(), 2, "en and es: {stale:?}");
    assert!(stale.iter().all(|d| d["severity"] == "warning"));
    ws.run(["i18n", "update", "intrepidos"])
        .succeeds()
        .stderr_has("updated source hashes: en (1 entry), es (1 entry)");
    ws.run(["check", "intrepidos"])
        .succeeds()
        .stderr_has("0 warnings");
}

#[test]
fn the_bundle_reader_returns_a_field_in_a_language_with_fallback() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["build"]).succeeds();
    let path = ws.path().join("build/intrepidos/intrepidos.carta");
    let bundle = Bundle::open(&path).unwrap();
    let frixo = bundle.card("rei-frixo").unwrap().unwrap();
    assert_eq!(frixo.name_in("en"), "King Phrixus");
    assert_eq!(frixo.name_in("fr"), "Rei Frixo");
    assert_eq!(
        frixo.field_in("levels.2.ability.name", "es"),
        Some(json!("Furia de Aries"))
    );
    assert_eq!(frixo.field_in("levels.0.xp", "en"), Some(json!(150)));
    let cerco = bundle.card("cerco").unwrap().unwrap();
    assert_eq!(
        cerco.field_in("effect", "en"),
        Some(json!(
            "This turn, your castle's attack rolls {dice:yellow:1} more."
        ))
    );
    assert_eq!(
        cerco.field_in("effect", "de"),
        cerco.field("effect").cloned(),
        "an untranslated language falls back to the source text"
    );
    let read = crate::bundle::python_reads(&path, &["--field", "cerco", "effect", "en"]);
    assert_eq!(Some(read), cerco.field_in("effect", "en"));
}

#[test]
fn an_import_with_a_message_the_game_lacks_writes_nothing() {
    let ws = Workspace::shipped(&["zodiacos"]);
    let before = ws.read("cards/zodiacos/i18n/en.toml");
    ws.write(
        "z.po",
        "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\nmsgctxt \"cards/no-such-card/name\"\nmsgid \"X\"\nmsgstr \"Y\"\n\nmsgctxt \"cards/leo/name\"\nmsgid \"Leo\"\nmsgstr \"Lion\"\n",
    );
    ws.run(["i18n", "import", "zodiacos", "z.po"])
        .fails()
        .stderr_has("message `cards/no-such-card/name` was not imported")
        .stderr_has("nothing written");
    assert_eq!(ws.read("cards/zodiacos/i18n/en.toml"), before);
    ws.run(["i18n", "export", "zodiacos", "--lang", "fr"])
        .fails()
        .stderr_has("game `zodiacos` declares no translation into `fr`");
}

/// The words (runs of letters) of the visible text of a sheets page's
/// cards: the cover (carta's own English) and the markup left out.
fn card_words(html: &str) -> BTreeSet<String> {
    let body = &html[html.find("<body").expect("a body")..];
    let mut text = String::new();
    let mut rest = body;
    // The cover is the first section; the cards follow it.
    if let Some(end) = rest.find("</section>") {
        rest = &rest[end..];
    }
    // Scripts and styles are no printed text, and a script may hold `<`.
    let mut stripped = String::with_capacity(rest.len());
    let mut at = rest;
    while let Some(open) = at.find("<script").or_else(|| at.find("<style")) {
        let open = [at.find("<script"), at.find("<style")]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(open);
        stripped.push_str(&at[..open]);
        let close = if at[open..].starts_with("<script") {
            "</script>"
        } else {
            "</style>"
        };
        at = at[open..]
            .find(close)
            .map_or("", |end| &at[open + end + close.len()..]);
    }
    stripped.push_str(at);
    let rest = stripped.as_str();
    let mut in_tag = false;
    let mut skip = false;
    for (i, c) in rest.char_indices() {
        match c {
            '<' => {
                in_tag = true;
                let tag = &rest[i..];
                skip = tag.starts_with("<script") || tag.starts_with("<style");
                text.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag && !skip => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&amp;", "&")
        .replace("&#39;", "'")
        .replace("&quot;", "\"");
    words(&text)
}

fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The words of every translation in a translation file.
fn translated_words(toml_text: &str) -> BTreeSet<String> {
    fn walk(v: &toml::Value, out: &mut BTreeSet<String>) {
        match v {
            toml::Value::String(s) => out.extend(words(s)),
            toml::Value::Table(t) => match t.get("text") {
                Some(toml::Value::String(s)) => out.extend(words(s)),
                _ => t.values().for_each(|v| walk(v, out)),
            },
            _ => {}
        }
    }
    let doc: toml::Table = toml_text.parse().unwrap();
    let mut out = BTreeSet::new();
    doc.values().for_each(|v| walk(v, &mut out));
    out
}

#[test]
fn the_translated_sheets_print_no_caption_in_the_source_language() {
    let ws = Workspace::shipped(&["intrepidos", "zodiacos"]);
    for (game, lang) in [
        ("intrepidos", "en"),
        ("zodiacos", "en"),
        ("intrepidos", "es"),
    ] {
        ws.run(["build", game, "--lang", lang]).succeeds();
        let source = ws.read(&format!("build/{game}/sheets/index.html"));
        let translated = ws.read(&format!("build/{game}/sheets/{lang}/index.html"));
        assert!(
            !translated.contains("Untranslated"),
            "{game} {lang}: every string is translated"
        );
        // A word both languages print must be one the translation itself
        // uses (a name such as `Antares`, `Limbo`, `XP`): a caption left
        // in the source language is not.
        let allowed = translated_words(&ws.read(&format!("cards/{game}/i18n/{lang}.toml")));
        let source_words = card_words(&source);
        let printed = card_words(&translated);
        let left: Vec<&String> = printed
            .iter()
            .filter(|w| source_words.contains(*w) && !allowed.contains(*w))
            .collect();
        assert!(
            left.is_empty(),
            "{game} {lang} prints in the source language: {left:?}"
        );
    }
}

#[test]
fn a_template_phrase_without_a_translation_prints_in_the_source_language() {
    let ws = Workspace::shipped(&["zodiacos"]);
    let en = ws.read("cards/zodiacos/i18n/en.toml");
    let vida = entry_line(&en, "Vida = ");
    ws.write(
        "cards/zodiacos/i18n/en.toml",
        en.replacen(&format!("{vida}\n"), "", 1),
    );
    ws.run(["check"])
        .succeeds()
        .stderr_has("the template phrase \"Vida\" has no en translation")
        .stderr_has("zodiacos en: 60/60 (phrases 6/7)");
    ws.run(["build", "--lang", "en"]).succeeds();
    let sheets = ws.read("build/zodiacos/sheets/en/index.html");
    assert!(sheets.contains("<span class=\"k\">Vida</span>"));
    assert!(sheets.contains("<span class=\"k\">Damage</span>"));
    assert!(sheets.contains("Untranslated, printed in es: 1 string (phrases/Vida)"));
}

#[test]
fn the_bundle_carries_the_manifests_translations_and_labels() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["build"]).succeeds();
    let path = ws.path().join("build/intrepidos/intrepidos.carta");
    let bundle = Bundle::open(&path).unwrap();
    assert_eq!(bundle.header().format_minor, carta::bundle::FORMAT_MINOR);
    let en = bundle.manifest_in("en");
    assert_eq!(en.name, "Zodiacus Intrepids");
    assert_eq!(en.kinds["action"].name, "Action");
    assert_eq!(en.zones["setup"].name, "Setup");
    assert_eq!(en.deck_rules[0].name, "60-card deck");
    let back = |m: &carta::config::Manifest| m.kinds["tower"].print.as_ref().unwrap().back.clone();
    assert_eq!(back(&en).as_deref(), Some("Setup"));
    let es = bundle.manifest_in("es");
    assert_eq!(es.zones["setup"].name, "Preparación");
    let fr = bundle.manifest_in("fr");
    assert_eq!(
        fr,
        *bundle.manifest(),
        "an untranslated language is the source"
    );
    assert_eq!(fr.kinds["action"].name, "Ação");
    assert_eq!(bundle.label_in("aquario", "en"), Some("Aquarius"));
    assert_eq!(bundle.label_in("aquario", "fr"), Some("Aquário"));
    assert_eq!(bundle.label_in("no-such-value", "en"), None);
    // `decompile` prints them as stored; the Python reader reads them.
    let decompiled: Value = serde_json::from_str(
        &ws.run(["decompile", path.to_str().unwrap()])
            .succeeds()
            .stdout,
    )
    .unwrap();
    assert_eq!(
        decompiled["game"]["i18n"]["en"]["kinds"]["action"]["name"],
        "Action"
    );
    assert_eq!(decompiled["game"]["labels"]["aquario"], "Aquário");
    let python = |args: &[&str]| crate::bundle::python_reads(&path, args);
    assert_eq!(
        python(&["--manifest", "kinds", "action", "name", "en"]),
        json!("Action")
    );
    assert_eq!(
        python(&["--manifest", "zones", "setup", "name", "es"]),
        json!("Preparación")
    );
    assert_eq!(
        python(&["--manifest", "rules", "deck-size", "name", "fr"]),
        json!(fr.deck_rules[0].name)
    );
    assert_eq!(
        python(&["--manifest", "kinds", "tower", "back", "en"]),
        json!("Setup")
    );
    assert_eq!(python(&["--label", "aquario", "en"]), json!("Aquarius"));
    assert_eq!(python(&["--label", "aquario", "fr"]), json!("Aquário"));
}

#[test]
fn a_language_without_a_translation_file_yet_prints_and_exports_every_source_string() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let manifest = ws.read("cards/intrepidos/game.toml");
    ws.write(
        "cards/intrepidos/game.toml",
        manifest.replacen(
            "translations = [\"en\", \"es\"]",
            "translations = [\"en\", \"es\", \"fr\"]",
            1,
        ),
    );
    // The sheets fall back to the source text — carta's captions too, in
    // the game's Portuguese — and the cover counts it all.
    ws.run(["build", "intrepidos", "--lang", "fr"]).succeeds();
    let fr = ws.read("build/intrepidos/sheets/fr/index.html");
    assert!(fr.contains("<html lang=\"fr\"") && fr.contains("Rei Frixo"));
    assert!(
        fr.contains("Sem tradução, impressos em pt-BR: ")
            && fr.contains("(game/description, game/name"),
        "the cover lists what kept its source text"
    );
    assert!(fr.contains("<span>Tipo</span>") && !fr.contains("<span>Kind</span>"));
    // A first export hands the translator every string, phrases included.
    let po = export_po(&ws, "intrepidos", "fr");
    assert!(
        po.contains("msgctxt \"cards/rei-frixo/name\"\nmsgid \"Rei Frixo\""),
        "{po}"
    );
    assert!(
        po.contains("msgctxt \"phrases/"),
        "the template phrases too"
    );
}

/// The commands a diagnostic's help suggests: every `` `carta …` `` in it.
fn suggested_commands(help: &str) -> Vec<Vec<String>> {
    help.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|code| code.strip_prefix("carta "))
        .map(|cmd| cmd.split_whitespace().map(str::to_owned).collect())
        .collect()
}

#[test]
fn every_command_the_i18n_help_suggests_runs() {
    let ws = Workspace::shipped(&["intrepidos"]);
    // A stale entry (changed source), a card without an English name and a
    // declared language without a file: each help suggests a command.
    change_a_source(&ws);
    let en = ws.read("cards/intrepidos/i18n/en.toml");
    let frixo = entry_line(&en, "name = { text = \"King Phrixus\"");
    ws.write(
        "cards/intrepidos/i18n/en.toml",
        en.replacen(&format!("{frixo}\n"), "", 1),
    );
    let manifest = ws.read("cards/intrepidos/game.toml");
    ws.write(
        "cards/intrepidos/game.toml",
        manifest.replacen("[\"en\", \"es\"]", "[\"en\", \"es\", \"fr\"]", 1),
    );
    let run = ws.run(["--message-format", "json", "check", "intrepidos"]);
    let mut commands: Vec<Vec<String>> = run
        .json()
        .iter()
        .filter(|d| d["code"] == "i18n::stale" || d["code"] == "i18n::missing")
        .filter_map(|d| d["help"].as_str())
        .flat_map(suggested_commands)
        .collect();
    commands.dedup();
    for verb in ["update", "export", "import"] {
        assert!(
            commands.iter().any(|c| c[1] == verb),
            "no `carta i18n {verb}` suggested: {commands:?}"
        );
    }
    // In the order suggested: an export writes the file an import reads.
    for command in &commands {
        let code = ws.run(command).code;
        assert!(
            matches!(code, Some(0 | 1)),
            "`carta {}` could not run (exit {code:?})",
            command.join(" ")
        );
    }
}

#[test]
fn the_cover_and_the_default_face_labels_are_translatable_strings() {
    // A game in Portuguese, printed by carta's default face, whose English
    // file `i18n update` gave carta's English captions.
    let ws = crate::export_lang::duelo();
    let en = ws.read("cards/duelo/i18n/en.toml");
    assert!(en.contains("kind = { text = \"Kind\", source = "), "{en}");
    assert!(
        en.contains("subject-deck = { text = \"Deck: {deck}\""),
        "{en}"
    );
    // Without its titles, English lacks two strings; check counts them.
    let no_titles = en.replacen("[titles.golpe]", "[titles.removed]", 1);
    let cut = no_titles.find("[titles.removed]").unwrap();
    let end = no_titles[cut..].find("\n\n").unwrap() + cut;
    ws.write(
        "cards/duelo/i18n/en.toml",
        format!("{}{}", &no_titles[..cut], &no_titles[end + 2..]),
    );
    ws.run(["check"])
        .succeeds()
        .stderr_has("2 of carta's captions and the default face's titles have no en")
        .stderr_has("`titles/golpe/custo`, `titles/golpe/efeito`")
        .stderr_has("translated cards: duelo en: 2/2 (captions 24/26)");
    // The PO file hands them to the translator, with their source text:
    // the schema's titles, and the captions in the game's language.
    let po = export_po(&ws, "duelo", "en");
    assert!(
        po.contains("msgctxt \"titles/golpe/custo\"\nmsgid \"Custo\"\nmsgstr \"\""),
        "{po}"
    );
    assert!(
        po.contains("msgctxt \"captions/kind\"\nmsgid \"Tipo\"\nmsgstr \"Kind\""),
        "{po}"
    );
    let po = po.replacen(
        "msgid \"Custo\"\nmsgstr \"\"",
        "msgid \"Custo\"\nmsgstr \"Cost\"",
        1,
    );
    ws.write("en.po", po);
    ws.run(["i18n", "import", "duelo", "en.po"]).succeeds();
    assert!(
        ws.read("cards/duelo/i18n/en.toml")
            .contains("[titles.golpe]\ncusto = { text = \"Cost\"")
    );
    // The sheets print them: the source language's in Portuguese, the
    // English ones in English.
    ws.run(["build", "--lang", "en"]).succeeds();
    let source = ws.read("build/duelo/sheets/index.html");
    let english = ws.read("build/duelo/sheets/en/index.html");
    assert!(source.contains("<title>Duelo — imprima e jogue</title>"));
    assert!(english.contains("<title>Duel — print and play</title>"));
    for (pt, en) in [
        ("<span>Custo</span>", "<span>Cost</span>"),
        (">Folha</span>", ">Sheet</span>"),
        ("Todas as cartas do jogo", "Every card of the game"),
    ] {
        assert!(
            source.contains(pt) && !source.contains(en),
            "{pt} in the source sheets"
        );
        assert!(
            english.contains(en) && !english.contains(pt),
            "{en} in the English sheets"
        );
    }
    assert!(english.contains("Untranslated, printed in pt-BR: 1 string (titles/golpe/efeito)"));
    // An entry for a caption carta does not print is an error, with help.
    let en = ws.read("cards/duelo/i18n/en.toml");
    ws.write(
        "cards/duelo/i18n/en.toml",
        en.replacen("kind = {", "knd = {", 1),
    );
    ws.run(["check"])
        .fails()
        .stderr_has("carta prints no caption `knd`")
        .stderr_has("did you mean `kind`?");
}

#[test]
fn the_spanish_sheets_of_a_portuguese_game_print_carta_s_captions_in_spanish() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["print", "intrepidos", "--lang", "es", "--lang", "en"])
        .succeeds();
    let sheets = |lang: &str| ws.read(&format!("build/intrepidos/sheets/{lang}index.html"));
    let (pt, es, en) = (sheets(""), sheets("es/"), sheets("en/"));
    for (page, words) in [
        (
            &pt,
            [">Folha</span>", "Todas as cartas do jogo", "Frente e verso"],
        ),
        (
            &es,
            [">Hoja</span>", "Todas las cartas del juego", "Doble cara"],
        ),
        (
            &en,
            [
                ">Sheet</span>",
                "Every card of the game",
                "Print double-sided",
            ],
        ),
    ] {
        for w in words {
            assert!(page.contains(w), "no {w:?}");
        }
    }
    assert!(es.contains("Idioma: es") && en.contains("Language: en"));
}
