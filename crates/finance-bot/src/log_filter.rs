//! Keeps WebDriver wire traffic out of the logs. thirtyfour logs every request body at debug
//! level, and the body of a `fill` is the typed text — the password included — so while a
//! submission runs, the caller's subscriber is wrapped in one that drops those events.

use tracing::level_filters::LevelFilter;
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::{Interest, NoSubscriber};
use tracing::{Dispatch, Event, Level, Metadata, Subscriber};

/// The subscriber in force now, minus thirtyfour's debug and trace events; `None` when no
/// subscriber is set (nothing to hide from).
pub fn without_wire_traffic() -> Option<Dispatch> {
    let inner = tracing::dispatcher::get_default(Dispatch::clone);
    if inner.is::<NoSubscriber>() {
        return None;
    }
    Some(Dispatch::new(HideWireTraffic {
        inner,
        max_level: LevelFilter::current(),
    }))
}

/// Forwards everything to `inner` except thirtyfour's verbose events.
struct HideWireTraffic {
    inner: Dispatch,
    /// The level the process was logging at when this was made: `Dispatch` does not expose the
    /// inner subscriber's own hint.
    max_level: LevelFilter,
}

fn is_wire(metadata: &Metadata<'_>) -> bool {
    metadata.target().starts_with("thirtyfour") && *metadata.level() >= Level::DEBUG
}

impl Subscriber for HideWireTraffic {
    fn register_callsite(&self, metadata: &'static Metadata<'static>) -> Interest {
        if is_wire(metadata) {
            Interest::never()
        } else {
            self.inner.register_callsite(metadata)
        }
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(self.max_level)
    }

    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        !is_wire(metadata) && self.inner.enabled(metadata)
    }

    fn event_enabled(&self, event: &Event<'_>) -> bool {
        !is_wire(event.metadata())
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        self.inner.new_span(span)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        self.inner.record(span, values);
    }

    fn record_follows_from(&self, span: &Id, follows: &Id) {
        self.inner.record_follows_from(span, follows);
    }

    fn event(&self, event: &Event<'_>) {
        if !is_wire(event.metadata()) {
            self.inner.event(event);
        }
    }

    fn enter(&self, span: &Id) {
        self.inner.enter(span);
    }

    fn exit(&self, span: &Id) {
        self.inner.exit(span);
    }

    fn clone_span(&self, id: &Id) -> Id {
        self.inner.clone_span(id)
    }

    fn try_close(&self, id: Id) -> bool {
        self.inner.try_close(id)
    }
}

impl std::fmt::Debug for HideWireTraffic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HideWireTraffic")
    }
}
