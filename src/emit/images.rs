//! Where an export's images are found by whoever loads the export (a
//! Tabletop Simulator table, a Card Game Simulator or Cockatrice client):
//! on this machine (`file://` URLs, which only the designer's own client
//! can open) or at a hosted folder the designer uploads them to
//! (`--base-url`). Image files are named by a hash of their bytes, so a
//! client that caches images by URL never shows a stale picture after an
//! edit: a changed image is a new URL.

use std::path::{Path, PathBuf};

use super::chromium::file_url;

/// Where the images of one export folder are loaded from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Home {
    /// Files on this machine, in this absolute folder.
    Local(PathBuf),
    /// A hosted folder: this base URL, ending in `/`, plus the file name.
    Hosted(String),
}

impl Home {
    /// The home of images written into `folder` (absolute, where the
    /// export lands once committed), hosted at `base_url` when given.
    pub fn new(base_url: Option<&str>, folder: &Path) -> Home {
        match base_url {
            Some(base) => Home::Hosted(base.to_owned()),
            None => Home::Local(folder.to_path_buf()),
        }
    }

    /// The URL of the image file `name` of this folder.
    pub fn url(&self, name: &str) -> String {
        match self {
            Home::Local(dir) => file_url(&dir.join(name)),
            Home::Hosted(base) => {
                let mut url = base.clone();
                for b in name.bytes() {
                    match b {
                        b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                            url.push(b as char);
                        }
                        _ => url.push_str(&format!("%{b:02X}")),
                    }
                }
                url
            }
        }
    }

    /// Whether only this machine can load the images.
    pub fn is_local(&self) -> bool {
        matches!(self, Home::Local(_))
    }
}

/// The file name of an image: `stem`, a hash of its bytes, `.png`.
pub fn hashed_name(stem: &str, bytes: &[u8]) -> String {
    format!("{stem}-{}.png", crate::digest::sha256_hex(bytes, 6))
}

/// `url` checked as the base of hosted images (`--base-url`): `http` or
/// `https`, with a host, no query or fragment, and given a final `/` so
/// file names append to it.
///
/// # Errors
/// A sentence saying what is wrong, for the usage error.
pub fn base_url(url: &str) -> Result<String, String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or("a base URL starts with `https://` or `http://`")?;
    if rest.is_empty() || rest.starts_with('/') {
        return Err("a base URL names a host".into());
    }
    if url.contains(['?', '#']) {
        return Err("a base URL has no query (`?`) or fragment (`#`)".into());
    }
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '\\')
    {
        return Err("a base URL has no spaces, quotes, backslashes or control characters".into());
    }
    let mut url = url.to_owned();
    if !url.ends_with('/') {
        url.push('/');
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosted_urls_append_the_escaped_name_to_the_base() {
        let home = Home::new(Some("https://example.org/cards/"), Path::new("/x"));
        assert_eq!(
            home.url("sheet 1.png"),
            "https://example.org/cards/sheet%201.png"
        );
        assert!(!home.is_local());
        let local = Home::new(None, Path::new("/out/g/tts"));
        assert_eq!(local.url("a.png"), "file:///out/g/tts/a.png");
        assert!(local.is_local());
    }

    #[test]
    fn base_urls_are_http_with_a_host_and_end_in_a_slash() {
        assert_eq!(
            base_url("https://cdn.example.org/g").unwrap(),
            "https://cdn.example.org/g/"
        );
        assert_eq!(base_url("http://h/").unwrap(), "http://h/");
        for bad in [
            "ftp://h/",
            "https://",
            "https:///x",
            "https://h/?a",
            "https://h/#a",
            "https://h/a b",
            "file:///x",
        ] {
            assert!(base_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_changed_image_gets_a_new_name() {
        let a = hashed_name("sheet-1", b"one");
        assert!(a.starts_with("sheet-1-"));
        assert_eq!(a.len(), "sheet-1-".len() + 12 + ".png".len(), "{a}");
        assert!(
            a.rsplit_once('.').is_some_and(|(_, ext)| ext == "png"),
            "{a}"
        );
        assert_ne!(a, hashed_name("sheet-1", b"two"));
        assert_eq!(a, hashed_name("sheet-1", b"one"));
    }
}
