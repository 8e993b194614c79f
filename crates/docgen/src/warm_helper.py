"""docgen warm-conversion helper (run by crates/docgen/src/warm.rs, not by hand).

Connects to a running LibreOffice over a UNO pipe and converts documents on request, so each
conversion costs a document load and store instead of a LibreOffice start.

Arguments: PIPE_NAME CONNECT_SECONDS SCRATCH_DIR.
Protocol: one JSON object per line on stdin, one JSON answer per line on stdout.
  startup answer:  {"ready": true} | {"fatal": "no-uno" | "connect", "detail": "..."}
  request:         {"op": "convert", "in": PATH, "out": PATH, "filter": "MS Word 97"}
  answer:          {"ok": true} | {"ok": false, "error": "..."}
  request:         {"op": "quit"}  (also on end of stdin) -> LibreOffice is asked to exit.
When the connection to LibreOffice is lost the helper exits; its owner restarts both.
"""

import json
import os
import sys
import time


def answer(obj):
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


try:
    import uno
    from com.sun.star.beans import PropertyValue
except Exception as exc:  # noqa: BLE001 - any import failure means "no usable uno"
    answer({"fatal": "no-uno", "detail": str(exc)})
    sys.exit(3)


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def connect(pipe, deadline):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local)
    last = None
    while time.monotonic() < deadline:
        try:
            ctx = resolver.resolve(
                "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return ctx.ServiceManager.createInstanceWithContext(
                "com.sun.star.frame.Desktop", ctx)
        except Exception as exc:  # noqa: BLE001 - NoConnectException while it starts
            last = exc
            time.sleep(0.05)
    raise RuntimeError("no connection to LibreOffice: %s" % last)


def convert(desktop, src, dst, filter_name):
    load = (
        prop("Hidden", True),
        prop("ReadOnly", True),
        # Templates come from clerks: never run their macros or update their links.
        prop("MacroExecutionMode", 0),
        prop("UpdateDocMode", 0),
    )
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), "_blank", 0, load)
    if doc is None:
        raise RuntimeError("LibreOffice could not open the document")
    try:
        doc.storeToURL(uno.systemPathToFileUrl(dst),
                       (prop("FilterName", filter_name), prop("Overwrite", True)))
    finally:
        doc.close(True)


def preload(desktop, scratch):
    """Round-trips a tiny document through the .docx import and .doc export filters, which
    LibreOffice loads on first use: about half a second we take at start-up instead of
    on the first user's save."""
    docx = os.path.join(scratch, "preload.docx")
    doc = desktop.loadComponentFromURL("private:factory/swriter", "_blank", 0,
                                       (prop("Hidden", True),))
    try:
        doc.getText().setString("易耗品出库单")
        doc.storeToURL(uno.systemPathToFileUrl(docx),
                       (prop("FilterName", "MS Word 2007 XML"), prop("Overwrite", True)))
    finally:
        doc.close(True)
    convert(desktop, docx, os.path.join(scratch, "preload.doc"), "MS Word 97")


def connection_lost(exc):
    text = "%s %s" % (type(exc).__name__, exc)
    return "Disposed" in text or "disposed" in text or "Broken pipe" in text


def quit_office(desktop):
    try:
        desktop.terminate()
    except Exception:  # noqa: BLE001 - it is going away either way
        pass


def main():
    pipe = sys.argv[1]
    wait = float(sys.argv[2])
    try:
        desktop = connect(pipe, time.monotonic() + wait)
    except Exception as exc:  # noqa: BLE001
        answer({"fatal": "connect", "detail": str(exc)})
        return 4
    try:
        preload(desktop, sys.argv[3])
    except Exception as exc:  # noqa: BLE001 - only a speed-up; real conversions report errors
        if connection_lost(exc):
            answer({"fatal": "connect", "detail": str(exc)})
            return 4
    answer({"ready": True})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        request = json.loads(line)
        if request.get("op") == "quit":
            break
        try:
            convert(desktop, request["in"], request["out"], request["filter"])
            answer({"ok": True})
        except Exception as exc:  # noqa: BLE001 - reported to the owner
            if connection_lost(exc):
                return 5
            answer({"ok": False, "error": "%s: %s" % (type(exc).__name__, exc)})
    quit_office(desktop)
    return 0


sys.exit(main())
