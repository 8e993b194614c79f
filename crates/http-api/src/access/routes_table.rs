//! What each path needs, as one table: the guard reads it, and a test checks that every
//! session route of the router is in it (a route missing here would be open to anyone).

/// What a request needs before its handler runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need<'a> {
    /// Nothing: the sign-in page and its API, assets, the icon.
    Public,
    /// A signed-in user.
    SignedIn,
    /// The session's owner; with `phone`, a valid upload token for the session also does.
    Session { id: &'a str, phone: bool },
    /// The phone page: the owner or an upload token; otherwise it looks unknown.
    PhonePage { id: &'a str },
}

/// Session routes: the prefix before the session id, and whether the phone's upload token
/// opens it. Everything after the id (a download's file name) does not matter.
pub(crate) const SESSION_ROUTES: &[(&str, bool)] = &[
    ("/api/upload/", false),
    ("/api/mobile-upload/", true),
    ("/api/files/", true),
    ("/api/download/", false),
    ("/api/config/", false),
    ("/api/data/", false),
    ("/api/save/", false),
    ("/api/process/", false),
    ("/api/submit-financial/", false),
    ("/api/logs/", false),
    ("/api/submit-challenge/", false),
    ("/api/agent/state/", false),
    ("/api/agent/process/", false),
    ("/api/agent/supplement/", false),
    ("/api/agent/user-supplement/", false),
    ("/api/agent/force-submit/", false),
    ("/api/qr/", false),
    ("/api/mobile-url/", false),
];

/// Paths anyone may ask for.
const PUBLIC: &[&str] = &[
    "/login",
    "/favicon.ico",
    "/api/auth/login",
    "/api/auth/logout",
    "/api/auth/me",
];

/// What `path` needs. Unknown paths need a signed-in user (their 404 is then not a probe).
pub(crate) fn need(path: &str) -> Need<'_> {
    if PUBLIC.contains(&path) || path.starts_with("/assets/") {
        return Need::Public;
    }
    if let Some(rest) = path.strip_prefix("/mobile/") {
        return Need::PhonePage {
            id: first_segment(rest),
        };
    }
    for &(prefix, phone) in SESSION_ROUTES {
        if let Some(rest) = path.strip_prefix(prefix) {
            return Need::Session {
                id: first_segment(rest),
                phone,
            };
        }
    }
    Need::SignedIn
}

fn first_segment(rest: &str) -> &str {
    rest.split('/').next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every route of the router with a session id in its path is a session route here: a
    /// route added there and forgotten here would be open to every signed-in user.
    #[test]
    fn every_session_route_of_the_router_is_in_the_table() {
        let router = include_str!("../routes/mod.rs");
        let mut seen = 0;
        for piece in router.split('"').filter(|p| p.contains("{session_id}")) {
            seen += 1;
            let path = piece
                .replace("{session_id}", "s")
                .replace("{filename}", "f");
            assert!(
                matches!(
                    need(&path),
                    Need::Session { id: "s", .. } | Need::PhonePage { id: "s" }
                ),
                "{piece} is not guarded as a session route"
            );
        }
        assert!(
            seen >= SESSION_ROUTES.len(),
            "only {seen} session routes found"
        );
    }

    #[test]
    fn paths_map_to_what_they_need() {
        let id = "0f8fad5b-d9cb-469f-a165-70867728950e";
        assert_eq!(need("/login"), Need::Public);
        assert_eq!(need("/assets/app.css"), Need::Public);
        assert_eq!(need("/api/auth/login"), Need::Public);
        assert_eq!(need("/"), Need::SignedIn);
        assert_eq!(need("/api/session"), Need::SignedIn);
        assert_eq!(need("/api/claims/3/void"), Need::SignedIn);
        assert_eq!(need("/api/audit"), Need::SignedIn);
        assert_eq!(need("/no/such"), Need::SignedIn);
        assert_eq!(
            need(&format!("/api/download/{id}/发票.pdf")),
            Need::Session { id, phone: false }
        );
        assert_eq!(
            need(&format!("/api/mobile-upload/{id}")),
            Need::Session { id, phone: true }
        );
        assert_eq!(
            need(&format!("/api/agent/force-submit/{id}")),
            Need::Session { id, phone: false }
        );
        assert_eq!(need(&format!("/mobile/{id}")), Need::PhonePage { id });
        assert_eq!(
            need("/api/files/"),
            Need::Session {
                id: "",
                phone: true
            }
        );
    }
}
