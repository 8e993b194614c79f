//! typst's `World` for one package: the template as the main source, the data and the
//! attachments as virtual files, the template's own folder for anything else it reads (a logo),
//! and no network: there is no package resolver, so `#import "@preview/…"` fails cleanly.

use crate::fonts::Fonts;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

/// Largest file a template may read from its own folder.
const MAX_TEMPLATE_FILE: u64 = 32 * 1024 * 1024;

/// One compilation's world.
pub(crate) struct ClaimWorld {
    library: LazyHash<Library>,
    fonts: Arc<Fonts>,
    main: Source,
    files: HashMap<FileId, Bytes>,
    /// The template's folder, for files that are not virtual.
    root: Option<PathBuf>,
    today: Option<Datetime>,
}

/// A file id in the project root; `None` for a path typst cannot represent.
pub(crate) fn project_file(path: &str) -> Option<FileId> {
    let vpath = VirtualPath::new(path).ok()?;
    Some(RootedPath::new(VirtualRoot::Project, vpath).intern())
}

impl ClaimWorld {
    /// `main_name` is the template's file name; `files` the virtual files by path.
    pub(crate) fn new(
        main_name: &str,
        template: String,
        files: Vec<(String, Vec<u8>)>,
        root: Option<PathBuf>,
        fonts: Arc<Fonts>,
        date: &str,
    ) -> Option<Self> {
        let main_id = project_file(main_name)?;
        let files = files
            .into_iter()
            .filter_map(|(path, bytes)| Some((project_file(&path)?, Bytes::new(bytes))))
            .collect();
        Some(Self {
            library: LazyHash::new(Library::default()),
            fonts,
            main: Source::new(main_id, template),
            files,
            root,
            today: parse_date(date),
        })
    }

    fn read_from_root(&self, id: FileId) -> FileResult<Bytes> {
        let rooted = id.get();
        let (VirtualRoot::Project, Some(root)) = (rooted.root(), &self.root) else {
            return Err(FileError::AccessDenied);
        };
        let path = rooted.vpath().realize(root).map_err(FileError::Realize)?;
        let meta = std::fs::metadata(&path).map_err(|e| FileError::from_io(e, &path))?;
        if meta.is_dir() {
            return Err(FileError::IsDirectory);
        }
        if meta.len() > MAX_TEMPLATE_FILE {
            return Err(FileError::Other(Some("文件过大".into())));
        }
        std::fs::read(&path)
            .map(Bytes::new)
            .map_err(|e| FileError::from_io(e, &path))
    }
}

fn parse_date(date: &str) -> Option<Datetime> {
    let mut parts = date.split(['-', '/']).map(|p| p.trim().parse::<u32>().ok());
    let year = i32::try_from(parts.next()??).ok()?;
    let month = u8::try_from(parts.next()??).ok()?;
    let day = u8::try_from(parts.next()??).ok()?;
    Datetime::from_ymd(year, month, day)
}

impl World for ClaimWorld {
    fn library(&self) -> &LazyHash<Library> {
        &self.library
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &self.fonts.book
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            return Ok(self.main.clone());
        }
        let bytes = self.file(id)?;
        let text = std::str::from_utf8(bytes.as_slice()).map_err(|_| FileError::InvalidUtf8)?;
        Ok(Source::new(id, text.to_owned()))
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.main.id() {
            return Ok(Bytes::from_string(self.main.clone()));
        }
        match self.files.get(&id) {
            Some(bytes) => Ok(bytes.clone()),
            None => self.read_from_root(id),
        }
    }

    fn font(&self, index: usize) -> Option<Font> {
        self.fonts.fonts.get(index).cloned()
    }

    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        self.today
    }
}
