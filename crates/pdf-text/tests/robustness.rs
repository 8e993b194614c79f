//! Hostile input: errors, never panics or hangs.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use lopdf::{EncryptionState, EncryptionVersion, Object, Permissions, StringFormat};
use reimburse_pdf_text::Error;

/// Small deterministic generator so failures reproduce.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn not_pdf_inputs() {
    assert_eq!(reimburse_pdf_text::parse(b""), Err(Error::NotPdf));
    assert_eq!(
        reimburse_pdf_text::parse(b"hello world"),
        Err(Error::NotPdf)
    );
    assert_eq!(
        reimburse_pdf_text::parse(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
        Err(Error::NotPdf)
    );
    // A header beyond the first 1024 bytes does not count.
    let mut late = vec![b'x'; 2048];
    late.extend(common::sample_pdf(false));
    assert_eq!(reimburse_pdf_text::parse(&late), Err(Error::NotPdf));
}

#[test]
fn header_only_and_tiny_inputs_are_errors() {
    for input in [
        &b"%PDF-"[..],
        b"%PDF-1.7",
        b"%PDF-1.7\n%%EOF",
        b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF",
    ] {
        // Either an error or an empty document, but no panic.
        if let Ok(doc) = reimburse_pdf_text::parse(input) {
            assert!(doc.plain_text().trim().is_empty());
        }
    }
}

#[test]
fn truncated_inputs_do_not_panic() {
    let bytes = common::sample_pdf(true);
    for end in (0..bytes.len()).step_by(37) {
        let _ = reimburse_pdf_text::parse(&bytes[..end]);
    }
}

#[test]
fn random_inputs_do_not_panic() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for len in [0usize, 1, 10, 100, 1000, 10_000] {
        for _ in 0..20 {
            let mut bytes = b"%PDF-1.7\n".to_vec();
            bytes.extend((0..len).map(|_| rng.next() as u8));
            let _ = reimburse_pdf_text::parse(&bytes);
        }
    }
}

#[test]
fn mutated_inputs_do_not_panic() {
    let original = common::sample_pdf(false);
    let mut rng = XorShift(42);
    for _ in 0..400 {
        let mut bytes = original.clone();
        for _ in 0..(1 + rng.next() % 8) {
            let i = (rng.next() as usize) % bytes.len();
            bytes[i] = match rng.next() % 4 {
                0 => b'(',
                1 => b'[',
                2 => b'0' + (rng.next() % 10) as u8,
                _ => rng.next() as u8,
            };
        }
        let _ = reimburse_pdf_text::parse(&bytes);
    }
}

#[test]
fn deep_nesting_in_content_is_bounded() {
    let mut doc = common::simple_pdf("x");
    let page_id = doc.page_iter().next().unwrap();
    let mut content = b"BT /F1 9 Tf ".to_vec();
    content.extend(std::iter::repeat_n(b'[', 200_000));
    content.extend(std::iter::repeat_n(b'(', 200_000));
    content.extend(std::iter::repeat_n(b')', 300_000));
    content.extend(b" TJ ET q ".repeat(50_000));
    doc.change_page_content(page_id, content).unwrap();
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    let _ = reimburse_pdf_text::parse(&bytes).unwrap();
}

fn encrypted(user_password: &str) -> Vec<u8> {
    let mut doc = common::simple_pdf("Secret text");
    let id = Object::String(b"0123456789abcdef".to_vec(), StringFormat::Hexadecimal);
    doc.trailer.set("ID", vec![id.clone(), id]);
    let version = EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password,
        key_length: 128,
        permissions: Permissions::all(),
    };
    let state = EncryptionState::try_from(version).unwrap();
    doc.encrypt(&state).unwrap();
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    bytes
}

#[test]
fn encrypted_with_user_password_is_reported() {
    assert_eq!(
        reimburse_pdf_text::parse(&encrypted("secret")),
        Err(Error::Encrypted)
    );
}

#[test]
fn encrypted_with_empty_user_password_opens() {
    let doc = reimburse_pdf_text::parse(&encrypted("")).unwrap();
    assert!(
        doc.plain_text().contains("Secret text"),
        "{:?}",
        doc.plain_text()
    );
}
