//! The captions carta itself prints on the sheets — the cover's title,
//! instructions and table heads, the language report — as translatable
//! strings of every translated game (`[captions]` in a translation file,
//! by id). carta knows them in English, Brazilian Portuguese and Spanish:
//! a game's own sheets print them in its language when carta knows it
//! (English otherwise), and that text is their source text in the game's
//! translation files. `carta i18n update` adds the ones carta knows in a
//! translation's language; the rest are translated like any string.
//!
//! `{name}` in a caption is a placeholder carta fills (`{game}`,
//! `{paper}`, `{n}` …); a translation keeps each (`i18n::placeholders`).

/// One caption: its id and its text in each language carta knows.
struct Caption {
    id: &'static str,
    en: &'static str,
    pt_br: &'static str,
    es: &'static str,
}

/// Every caption, by id. Ids are stable: a translation file names them.
const CAPTIONS: [Caption; 24] = [
    Caption {
        id: "title",
        en: "{game} — print and play",
        pt_br: "{game} — imprima e jogue",
        es: "{game} — imprime y juega",
    },
    Caption {
        id: "subject-game",
        en: "Every card of the game",
        pt_br: "Todas as cartas do jogo",
        es: "Todas las cartas del juego",
    },
    Caption {
        id: "subject-deck",
        en: "Deck: {deck}",
        pt_br: "Deck: {deck}",
        es: "Mazo: {deck}",
    },
    Caption {
        id: "print-portrait",
        en: "Print on {paper} portrait at 100% (actual size, no fit-to-page); cut along the crop marks.",
        pt_br: "Imprima em {paper} retrato, a 100% (tamanho real, sem ajuste); corte nas marcas de corte.",
        es: "Imprime en {paper} vertical, al 100 % (tamaño real, sin ajuste); corta por las marcas.",
    },
    Caption {
        id: "print-landscape",
        en: "Print on {paper} landscape at 100% (actual size, no fit-to-page); cut along the crop marks.",
        pt_br: "Imprima em {paper} paisagem, a 100% (tamanho real, sem ajuste); corte nas marcas de corte.",
        es: "Imprime en {paper} horizontal, al 100 % (tamaño real, sin ajuste); corta por las marcas.",
    },
    Caption {
        id: "print-portrait-lines",
        en: "Print on {paper} portrait at 100% (actual size, no fit-to-page); cut along the full-length cut lines.",
        pt_br: "Imprima em {paper} retrato, a 100% (tamanho real, sem ajuste); corte nas linhas de corte, de ponta a ponta.",
        es: "Imprime en {paper} vertical, al 100 % (tamaño real, sin ajuste); corta por las líneas de corte, de lado a lado.",
    },
    Caption {
        id: "print-landscape-lines",
        en: "Print on {paper} landscape at 100% (actual size, no fit-to-page); cut along the full-length cut lines.",
        pt_br: "Imprima em {paper} paisagem, a 100% (tamanho real, sem ajuste); corte nas linhas de corte, de ponta a ponta.",
        es: "Imprime en {paper} horizontal, al 100 % (tamaño real, sin ajuste); corta por las líneas de corte, de lado a lado.",
    },
    Caption {
        id: "duplex-none",
        en: "Faces only: no backs pages.",
        pt_br: "Só as frentes: sem páginas de versos.",
        es: "Solo los frentes: sin páginas de dorsos.",
    },
    Caption {
        id: "duplex-long",
        en: "Print double-sided, flipping on the long edge: each backs page follows its faces page.",
        pt_br: "Frente e verso, virando pela borda longa: cada página de versos segue a de frentes.",
        es: "Doble cara, girando por el borde largo: cada página de dorsos sigue a la de frentes.",
    },
    Caption {
        id: "duplex-short",
        en: "Print double-sided, flipping on the short edge: each backs page follows its faces page.",
        pt_br: "Frente e verso, virando pela borda curta: cada página de versos segue a de frentes.",
        es: "Doble cara, girando por el borde corto: cada página de dorsos sigue a la de frentes.",
    },
    Caption {
        id: "single-sided",
        en: "Single-sided printer: print, turn the stack as for the chosen edge, and print the backs pages.",
        pt_br: "Impressora de um lado só: imprima, vire a pilha pela borda escolhida e imprima os versos.",
        es: "Impresora de una cara: imprime, gira la pila por el borde elegido e imprime los dorsos.",
    },
    Caption {
        id: "ink-saver",
        en: "Ink saver: no card backgrounds or art.",
        pt_br: "Economia de tinta: sem fundos nem ilustrações nas cartas.",
        es: "Ahorro de tinta: sin fondos ni ilustraciones en las cartas.",
    },
    Caption {
        id: "language",
        en: "Language: {lang}",
        pt_br: "Idioma: {lang}",
        es: "Idioma: {lang}",
    },
    Caption {
        id: "untranslated-one",
        en: "Untranslated, printed in {source}: 1 string ({list})",
        pt_br: "Sem tradução, impresso em {source}: 1 texto ({list})",
        es: "Sin traducir, impreso en {source}: 1 texto ({list})",
    },
    Caption {
        id: "untranslated-many",
        en: "Untranslated, printed in {source}: {n} strings ({list})",
        pt_br: "Sem tradução, impressos em {source}: {n} textos ({list})",
        es: "Sin traducir, impresos en {source}: {n} textos ({list})",
    },
    Caption {
        id: "and-more",
        en: "{list} and {n} more",
        pt_br: "{list} e mais {n}",
        es: "{list} y {n} más",
    },
    Caption {
        id: "kind",
        en: "Kind",
        pt_br: "Tipo",
        es: "Tipo",
    },
    Caption {
        id: "cards",
        en: "Cards",
        pt_br: "Cartas",
        es: "Cartas",
    },
    Caption {
        id: "copies",
        en: "Copies",
        pt_br: "Cópias",
        es: "Copias",
    },
    Caption {
        id: "total",
        en: "Total",
        pt_br: "Total",
        es: "Total",
    },
    Caption {
        id: "sheet",
        en: "Sheet",
        pt_br: "Folha",
        es: "Hoja",
    },
    Caption {
        id: "pages",
        en: "Pages",
        pt_br: "Páginas",
        es: "Páginas",
    },
    Caption {
        id: "kinds",
        en: "Kinds",
        pt_br: "Tipos",
        es: "Tipos",
    },
    Caption {
        id: "contents",
        en: "Contents",
        pt_br: "Conteúdo",
        es: "Contenido",
    },
];

/// The words of a reprint's cover (`--changed-since`): carta's own, in
/// English, Brazilian Portuguese or Spanish by the language printed, and
/// not translatable strings of a game (a reprint is a designer's proof,
/// not a sheet players receive with the game).
const REPRINT: [Caption; 7] = [
    Caption {
        id: "reprint-subject",
        en: "Reprint: the cards whose printed face or back changed since {since}",
        pt_br: "Reimpressão: as cartas cuja frente ou verso impresso mudou desde {since}",
        es: "Reimpresión: las cartas cuyo frente o dorso impreso cambió desde {since}",
    },
    Caption {
        id: "reprint-new",
        en: "new",
        pt_br: "nova",
        es: "nueva",
    },
    Caption {
        id: "reprint-renamed",
        en: "renamed from {old}",
        pt_br: "renomeada, era {old}",
        es: "renombrada, era {old}",
    },
    Caption {
        id: "reprint-face",
        en: "face changed: {fields}",
        pt_br: "frente mudou: {fields}",
        es: "frente cambió: {fields}",
    },
    Caption {
        id: "reprint-look",
        en: "face changed: templates, style or art",
        pt_br: "frente mudou: modelos, estilo ou arte",
        es: "frente cambió: plantillas, estilo o arte",
    },
    Caption {
        id: "reprint-back",
        en: "back changed",
        pt_br: "verso mudou",
        es: "dorso cambió",
    },
    Caption {
        id: "reprint-removed",
        en: "Removed, nothing to print: {list}",
        pt_br: "Removidas, nada a imprimir: {list}",
        es: "Retiradas, nada que imprimir: {list}",
    },
];

/// The reprint cover's words `id` (see `REPRINT`) in `lang`, English
/// where carta does not know it, with `values` filled in.
pub fn reprint(id: &str, lang: &str, values: &[(&str, &str)]) -> String {
    let text = REPRINT
        .iter()
        .find(|c| c.id == id)
        .map_or("", |c| c.text(lang).unwrap_or(c.en));
    fill(text, values)
}

/// The ids of every caption, in carta's order.
pub fn ids() -> impl Iterator<Item = &'static str> {
    CAPTIONS.iter().map(|c| c.id)
}

/// Whether `id` names a caption.
pub fn exists(id: &str) -> bool {
    CAPTIONS.iter().any(|c| c.id == id)
}

/// Caption `id` in `lang` as carta knows it: by the exact language, else
/// by its primary subtag (`es-MX` → Spanish, `pt` → Brazilian
/// Portuguese); `None` for a language carta does not know or an unknown id.
pub fn known(id: &str, lang: &str) -> Option<&'static str> {
    CAPTIONS.iter().find(|c| c.id == id)?.text(lang)
}

impl Caption {
    /// The caption in `lang`, by the exact language, else by its primary
    /// subtag; `None` for a language carta does not know.
    fn text(&self, lang: &str) -> Option<&'static str> {
        let primary = lang.split(['-', '_']).next().unwrap_or(lang);
        match primary.to_ascii_lowercase().as_str() {
            "en" => Some(self.en),
            "pt" => Some(self.pt_br),
            "es" => Some(self.es),
            _ => None,
        }
    }
}

/// Caption `id` in `lang`, in English where carta does not know `lang`
/// (empty for an unknown id).
pub fn source(id: &str, lang: &str) -> &'static str {
    known(id, lang)
        .or_else(|| known(id, "en"))
        .unwrap_or_default()
}

/// `text` with each `{name}` of `values` replaced by its value.
pub fn fill(text: &str, values: &[(&str, &str)]) -> String {
    let mut out = text.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captions_are_found_by_language_and_primary_subtag() {
        assert_eq!(known("kind", "en"), Some("Kind"));
        assert_eq!(known("kind", "pt-BR"), Some("Tipo"));
        assert_eq!(known("sheet", "es-MX"), Some("Hoja"));
        assert_eq!(known("kind", "de"), None);
        assert_eq!(source("kind", "de"), "Kind");
        assert_eq!(known("nothing", "en"), None);
        assert!(exists("title") && !exists("Title"));
    }

    #[test]
    fn every_language_keeps_every_placeholder_and_ids_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for c in CAPTIONS.iter().chain(&REPRINT) {
            assert!(seen.insert(c.id), "{} twice", c.id);
            let want = super::super::tokens(c.en);
            assert_eq!(super::super::tokens(c.pt_br), want, "{}", c.id);
            assert_eq!(super::super::tokens(c.es), want, "{}", c.id);
        }
        assert_eq!(
            fill("{list} and {n} more", &[("list", "a, b"), ("n", "3")]),
            "a, b and 3 more"
        );
    }
}
