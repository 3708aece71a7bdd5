#!/usr/bin/python3
"""
One warm LibreOffice instance driven over UNO, for the DocFlow libreoffice engine (instance.ts).

Starts soffice on a private pipe with its own profile, applies the security settings, then reads one JSON job a line
on stdin and answers one JSON line on stdout. Runs with Debian's /usr/bin/python3 (the one with the `uno` module).
The Node side kills this process's whole group (soffice included) on timeout, crash or close: nothing here has to
clean up after a hang.

Protocol (one object a line):
  -> {"id": n, "input": path, "output": path, "kind": "document"|"spreadsheet"|"presentation",
      "landscape": bool, "fitToPage": bool, "password": str|null}
  <- {"ready": true, "sofficePid": n, "security": {...}}                   once, after start-up
  <- {"id": n, "ok": true, "filter": name, "ms": n}
  <- {"id": n, "ok": false, "code": CODE, "message": str, "fatal": bool}   fatal: the instance is gone
"""

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

# The protocol owns the real stdout; anything else that prints (UNO, soffice warnings) goes to stderr instead of
# corrupting a JSON line.
_proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
os.dup2(2, 1)

import uno  # noqa: E402
import unohelper  # noqa: E402
from com.sun.star.beans import PropertyValue  # noqa: E402
from com.sun.star.task import XInteractionHandler  # noqa: E402

EXPORT_FILTER = {
    "document": "writer_pdf_Export",
    "spreadsheet": "calc_pdf_Export",
    "presentation": "impress_pdf_Export",
    "pdf": "draw_pdf_Export",
}
# Restricts type detection to the module of the expected kind (a CSV goes to Calc, not Writer's text import).
DOCUMENT_SERVICE = {
    "document": "com.sun.star.text.TextDocument",
    "spreadsheet": "com.sun.star.sheet.SpreadsheetDocument",
    "presentation": "com.sun.star.presentation.PresentationDocument",
    "pdf": "com.sun.star.drawing.DrawingDocument",
}
# Kinds opened with one import filter only, never by type detection.
IMPORT_FILTER = {"pdf": "draw_pdf_import"}
# Import filters that accept any bytes as text: only trusted when the bytes look like text.
TEXT_FILTERS = {"Text", "Text (encoded)", "Text - txt - csv (StarCalc)", "Text (StarWriter/Web)"}
NEVER_EXECUTE = 0  # com.sun.star.document.MacroExecMode.NEVER_EXECUTE
NO_UPDATE = 0  # com.sun.star.document.UpdateDocMode.NO_UPDATE

SECURITY = {
    "/org.openoffice.Office.Common/Security/Scripting": {
        "MacroSecurityLevel": 3,  # very high: only signed macros from trusted locations, and there are none
        "DisableMacrosExecution": True,
        "BlockUntrustedRefererLinks": True,  # linked images, media and OLE links of a loaded document are not fetched
    },
}


def pv(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def send(obj):
    _proto.write(json.dumps(obj) + "\n")
    _proto.flush()


def log(msg):
    sys.stderr.write("uno-helper: %s\n" % msg)
    sys.stderr.flush()


class Interactions(unohelper.Base, XInteractionHandler):
    """Answers every question LibreOffice would ask a user with Abort, noting password requests for the caller."""

    def __init__(self):
        self.password_requested = False
        self.requests = []

    def handle(self, request):
        # getRequest() cannot be read from Python 3.11's pyuno (it fails converting the request exception), so the
        # request is recognised by what it offers to answer with.
        conts = {}
        for c in request.getContinuations():
            for t in c.Types:
                conts.setdefault(t.typeName.rsplit(".", 1)[-1], c)
        self.requests.append("/".join(sorted(k for k in conts if k.startswith("XInteraction"))))
        if "XInteractionPassword" in conts or "XInteractionPassword2" in conts:
            self.password_requested = True
        elif "XInteractionFilterOptions" in conts:
            # The CSV import asks for its options: keep the filter's defaults (what a headless convert-to does).
            conts["XInteractionFilterOptions"].select()
            return
        if "XInteractionAbort" in conts:
            conts["XInteractionAbort"].select()


def looks_binary(path):
    with open(path, "rb") as f:
        head = f.read(65536)
    if head.startswith(b"PK\x03\x04") or head.startswith(b"\xd0\xcf\x11\xe0"):
        return True  # a (damaged) zip or OLE container: an office file LibreOffice could not read as such
    if b"\x00" in head:
        return True
    try:
        head.decode("utf-8")
        return False
    except UnicodeDecodeError as e:
        # A cut in the middle of a multi-byte character at the end of the sample is still text.
        if e.start >= len(head) - 4:
            return False
    # Legacy 8-bit text (Latin-1, cp1252) has few control characters; random bytes have many.
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return controls > len(head) // 100


class Instance:
    def __init__(self, soffice, profile, pipe, startup_ms):
        self.soffice = soffice
        self.profile = profile
        self.pipe = pipe
        self.startup_ms = startup_ms
        self.proc = None
        self.ctx = None
        self.desktop = None

    def start(self):
        args = [
            self.soffice,
            "-env:UserInstallation=" + uno.systemPathToFileUrl(self.profile),
            "--headless",
            "--invisible",
            "--nologo",
            "--nodefault",
            "--norestore",
            "--nolockcheck",
            "--accept=pipe,name=%s;urp;StarOffice.ComponentContext" % self.pipe,
        ]
        # Same process group as this helper (no new session): the Node side kills both with one signal. `soffice`
        # (oosplash) restarts soffice.bin itself on the first start's exit code 81.
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=2, stderr=2)
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % self.pipe
        deadline = time.monotonic() + self.startup_ms / 1000.0
        while True:
            try:
                self.ctx = resolver.resolve(url)
                break
            except Exception as e:  # noqa: BLE001  NoConnectException until soffice listens
                if self.proc.poll() is not None:
                    raise RuntimeError("soffice exited with %s before accepting connections" % self.proc.returncode)
                if time.monotonic() > deadline:
                    raise RuntimeError("soffice did not accept connections in time: %s" % e)
                time.sleep(0.05)
        smgr = self.ctx.ServiceManager
        self.desktop = smgr.createInstanceWithContext("com.sun.star.frame.Desktop", self.ctx)
        return self.apply_security()

    def apply_security(self):
        smgr = self.ctx.ServiceManager
        provider = smgr.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider", self.ctx)
        applied = {}
        for node, values in SECURITY.items():
            access = provider.createInstanceWithArguments(
                "com.sun.star.configuration.ConfigurationUpdateAccess", (pv("nodepath", node),)
            )
            for k, v in values.items():
                access.setPropertyValue(k, v)
            access.commitChanges()
            for k in values:
                applied[k] = access.getPropertyValue(k)
        return applied

    def soffice_pid(self):
        """soffice.bin's pid, a child of oosplash (for the Node side's RSS reading and for tests)."""
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % entry) as f:
                    stat = f.read()
            except OSError:
                continue
            comm = stat[stat.index("(") + 1 : stat.rindex(")")]
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
            if ppid == self.proc.pid and comm.startswith("soffice"):
                return int(entry)
        return self.proc.pid

    def alive(self):
        if self.proc.poll() is not None:
            return False
        try:
            self.desktop.getFrames()
            return True
        except Exception:  # noqa: BLE001
            return False

    def convert(self, job):
        kind = job["kind"]
        password = job.get("password")
        handler = Interactions()
        url = uno.systemPathToFileUrl(os.path.abspath(job["input"]))
        props = [
            pv("Hidden", True),
            pv("ReadOnly", True),
            pv("MacroExecutionMode", NEVER_EXECUTE),
            pv("UpdateDocMode", NO_UPDATE),
            pv("InteractionHandler", handler),
            pv("DocumentService", DOCUMENT_SERVICE[kind]),
            pv("RepairPackage", False),
            pv("Silent", True),
        ]
        if password is not None:
            props.append(pv("Password", password))
        if kind in IMPORT_FILTER:
            props.append(pv("FilterName", IMPORT_FILTER[kind]))
        doc = None
        try:
            try:
                doc = self.desktop.loadComponentFromURL(url, "_blank", 0, tuple(props))
            except Exception as e:  # noqa: BLE001
                return self.load_failure(handler, password, e)
            if doc is None:
                return self.load_failure(handler, password, None)
            if not doc.supportsService(DOCUMENT_SERVICE[kind]):
                return fail("INVALID_DOCUMENT", "not a %s" % kind)
            filt = ""
            for a in doc.getArgs():
                if a.Name == "FilterName":
                    filt = a.Value
            if filt in TEXT_FILTERS and looks_binary(job["input"]):
                return fail("INVALID_DOCUMENT", "binary content read as text by filter %s" % filt)
            if kind == "presentation" and job.get("landscape"):
                self.slides_landscape(doc)
            elif job.get("landscape") or (kind == "spreadsheet" and job.get("fitToPage")):
                self.page_setup(doc, bool(job.get("landscape")), kind == "spreadsheet" and bool(job.get("fitToPage")))
            out = uno.systemPathToFileUrl(os.path.abspath(job["output"]))
            store = [pv("FilterName", EXPORT_FILTER[kind]), pv("Overwrite", True)]
            options = job.get("exportOptions") or {}
            if options:
                # The PDF export filter's own options, as `--convert-to 'pdf:writer_pdf_Export:{...}'` passes them.
                data = tuple(pv(k, v) for k, v in sorted(options.items()))
                store.append(pv("FilterData", uno.Any("[]com.sun.star.beans.PropertyValue", data)))
            try:
                uno.invoke(doc, "storeToURL", (out, tuple(store)))
            except Exception as e:  # noqa: BLE001
                if not self.alive():
                    return fail("ENGINE_FAILED", "soffice died during export: %s" % e, fatal=True)
                return fail("INVALID_DOCUMENT", "export failed: %s" % e)
            return {"ok": True, "filter": filt}
        finally:
            if doc is not None:
                try:
                    doc.close(True)
                except Exception:  # noqa: BLE001
                    try:
                        doc.dispose()
                    except Exception:  # noqa: BLE001
                        pass

    def load_failure(self, handler, password, err):
        if handler.password_requested:
            if password:
                return fail("WRONG_PASSWORD", "wrong password")
            return fail("PASSWORD_REQUIRED", "password required")
        if not self.alive():
            return fail("ENGINE_FAILED", "soffice died while loading: %s" % err, fatal=True)
        return fail("INVALID_DOCUMENT", "could not load: %s (asked: %s)" % (err, ",".join(handler.requests)))

    @staticmethod
    def slides_landscape(doc):
        pages = doc.getDrawPages()
        for i in range(pages.getCount()):
            p = pages.getByIndex(i)
            if p.Width < p.Height:
                p.Width, p.Height = p.Height, p.Width

    @staticmethod
    def page_setup(doc, landscape, fit):
        styles = doc.getStyleFamilies().getByName("PageStyles")
        for name in styles.getElementNames():
            s = styles.getByName(name)
            if landscape and not s.IsLandscape:
                w, h = s.Width, s.Height
                s.IsLandscape = True
                if w < h:
                    s.Width, s.Height = h, w
            if fit:
                # Scale to one page wide, as many pages tall as the content needs (0: unbounded).
                s.ScaleToPagesX = 1
                s.ScaleToPagesY = 0


def fail(code, message, fatal=False):
    return {"ok": False, "code": code, "message": message, "fatal": fatal}


def watch_stdin(jobs):
    """
    Reads jobs on its own thread, so that losing the Node side (stdin closed) is noticed even while a conversion
    hangs: then the whole group goes, soffice included.
    """
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            jobs.put(json.loads(line))
        except ValueError:
            log("ignored a line that is not JSON")
    stop_soffice()


# Set once soffice runs, for stop_soffice().
INSTANCE = None


def stop_soffice():
    """
    Stop in an order where every process is reaped by its own parent: soffice.bin first (oosplash reaps it and
    exits), then oosplash is reaped here, then this helper exits and Node reaps it. Killing the whole group at once
    would orphan soffice.bin to PID 1, which in a container without an init leaves a zombie per instance.
    """
    inst = INSTANCE
    try:
        if inst is not None and inst.proc is not None:
            pid = inst.soffice_pid()
            if pid != inst.proc.pid:
                os.kill(pid, signal.SIGKILL)
            else:
                inst.proc.kill()
            inst.proc.wait(timeout=3)
    except Exception:  # noqa: BLE001
        pass
    stop_group()


def stop_group():
    # soffice runs in this helper's process group: take all of it down, never leave an orphan behind.
    os.killpg(os.getpgrp(), signal.SIGKILL)


def main():
    # Lead our own process group whoever started us, so that stop_group() takes soffice and nothing else.
    if os.getpgrp() != os.getpid():
        os.setpgrp()
    opts = {}
    argv = sys.argv[1:]
    for i in range(0, len(argv) - 1, 2):
        opts[argv[i].lstrip("-")] = argv[i + 1]
    jobs = queue.Queue()
    threading.Thread(target=watch_stdin, args=(jobs,), daemon=True).start()
    global INSTANCE
    inst = INSTANCE = Instance(opts["soffice"], opts["profile"], opts["pipe"], int(opts.get("startup-ms", "60000")))
    try:
        security = inst.start()
    except Exception as e:  # noqa: BLE001
        send({"ready": False, "message": str(e)})
        stop_soffice()
    send({"ready": True, "sofficePid": inst.soffice_pid(), "security": security})
    while True:
        job = jobs.get()
        started = time.monotonic()
        try:
            res = inst.convert(job)
        except Exception as e:  # noqa: BLE001
            res = fail("ENGINE_FAILED", "%s: %s" % (type(e).__name__, e), fatal=not inst.alive())
        res["id"] = job.get("id")
        res["ms"] = round((time.monotonic() - started) * 1000)
        send(res)
        if res.get("fatal"):
            stop_soffice()


if __name__ == "__main__":
    main()
