//! `convert --to ods`: an ODS (Open Document) spreadsheet, a sheet per card file.
//! Written by hand (three parts, no compression, no dates) so the same
//! cards make the same bytes. Each text cell carries its exact value in
//! `office:string-value`, which readers take as it is, and the same text
//! as paragraphs for display, spaces and tabs spelled as ODF asks.

use std::io::Write as _;

use serde_json::Value;

use super::{Out, Source, sheet_name, table};

const MIMETYPE: &str = "application/vnd.oasis.opendocument.spreadsheet";

const MANIFEST: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
 <manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
"#;

/// The workbook of `sources`, or why a value cannot stand in one (a
/// control character, which XML cannot hold).
pub(super) fn ods(sources: &[Source]) -> Result<Vec<u8>, String> {
    let content = content(sources)?;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    // The `mimetype` part comes first and unpacked, as ODF asks; a fixed
    // date keeps the bytes the same from one run to the next.
    let stored = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    let parts = [
        ("mimetype", MIMETYPE),
        ("META-INF/manifest.xml", MANIFEST),
        ("content.xml", content.as_str()),
    ];
    for (name, text) in parts {
        zip.start_file(name, stored).map_err(|e| e.to_string())?;
        zip.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    let cursor = zip.finish().map_err(|e| e.to_string())?;
    Ok(cursor.into_inner())
}

/// `content.xml`: a table per source, its header row then a row per card.
fn content(sources: &[Source]) -> Result<String, String> {
    let mut out = String::from(concat!(
        r#"<?xml version="1.0" encoding="UTF-8"?>"#,
        "\n",
        r#"<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">"#,
        "<office:body><office:spreadsheet>\n"
    ));
    let mut names: Vec<String> = Vec::new();
    for source in sources {
        let name = sheet_name(&source.rel, &names);
        out.push_str(&format!(r#"<table:table table:name="{}">"#, attr(&name)?));
        names.push(name);
        let (headers, rows) = table(source.cards.iter());
        out.push_str(&format!(
            r#"<table:table-column table:number-columns-repeated="{}"/>"#,
            headers.len().max(1)
        ));
        out.push_str("<table:table-row>");
        for h in &headers {
            string_cell(&mut out, h)?;
        }
        out.push_str("</table:table-row>\n");
        for mut row in rows {
            // A card's fields come in its own order; ODF's cells in the
            // columns' order.
            row.sort_by_key(|(c, _)| *c);
            out.push_str("<table:table-row>");
            let mut next = 0;
            for (c, value) in row {
                // Columns this card has no value in stay empty cells.
                for _ in next..c {
                    out.push_str("<table:table-cell/>");
                }
                next = c + 1;
                match value {
                    Out::Scalar(Value::Bool(b)) => out.push_str(&format!(
                        r#"<table:table-cell office:value-type="boolean" office:boolean-value="{b}"><text:p>{}</text:p></table:table-cell>"#,
                        if b { "TRUE" } else { "FALSE" }
                    )),
                    Out::Scalar(Value::Number(n)) => {
                        let n = n.to_string();
                        out.push_str(&format!(
                            r#"<table:table-cell office:value-type="float" office:value="{n}"><text:p>{n}</text:p></table:table-cell>"#
                        ));
                    }
                    Out::Scalar(Value::String(s)) | Out::Text(s) => string_cell(&mut out, &s)?,
                    Out::Scalar(_) => out.push_str("<table:table-cell/>"),
                }
            }
            out.push_str("</table:table-row>\n");
        }
        out.push_str("</table:table>\n");
    }
    out.push_str("</office:spreadsheet></office:body></office:document-content>\n");
    Ok(out)
}

/// A text cell: its exact value as an attribute, and as paragraphs.
fn string_cell(out: &mut String, s: &str) -> Result<(), String> {
    out.push_str(&format!(
        r#"<table:table-cell office:value-type="string" office:string-value="{}">"#,
        attr(s)?
    ));
    for line in s.split('\n') {
        out.push_str("<text:p>");
        paragraph(out, line);
        out.push_str("</text:p>");
    }
    out.push_str("</table:table-cell>");
    Ok(())
}

/// One line of text as ODF paragraph content: a tab is `<text:tab/>`, and
/// a space after a space (or at the start) `<text:s/>`, which XML readers
/// would otherwise fold away.
fn paragraph(out: &mut String, line: &str) {
    let mut after_space = true;
    for c in line.chars() {
        match c {
            ' ' if after_space => out.push_str("<text:s/>"),
            '\t' => out.push_str("<text:tab/>"),
            '\r' => {}
            c => push_escaped(out, c),
        }
        after_space = c == ' ';
    }
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' => out.push_str("&quot;"),
        c => out.push(c),
    }
}

/// Text as an attribute value: line breaks and tabs as character
/// references (an XML reader turns them into spaces otherwise).
fn attr(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if c.is_control() && u32::from(c) < 0x20 => {
                return Err(format!(
                    "the text {s:?} holds the control character U+{:04X}, which an OpenDocument file cannot hold",
                    u32::from(c)
                ));
            }
            c => push_escaped(&mut out, c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_tabs_and_line_breaks_are_spelled_as_odf_asks() {
        let mut out = String::new();
        string_cell(&mut out, " a  b\tc\n<d>").unwrap();
        assert_eq!(
            out,
            "<table:table-cell office:value-type=\"string\" office:string-value=\" a  b&#9;c&#10;&lt;d&gt;\">\
             <text:p><text:s/>a <text:s/>b<text:tab/>c</text:p><text:p>&lt;d&gt;</text:p></table:table-cell>"
        );
        assert!(attr("a\u{1}b").is_err());
    }
}
