"""A scripted LSP client: JSON-RPC over the stdio of a real `promolint server` process, as an
editor talks to it.  Used by the server's end-to-end tests and its latency benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

_TIMEOUT = 60.0  # seconds: a first analysis loads the engine


class LspSession:
    def __init__(self, root: Path, command: list[str] | None = None):
        self.root = root
        self.process = subprocess.Popen(command or [sys.executable, "-m", "promolint", "server"], cwd=root,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        self._next_id = 0
        self._responses: dict[int, Any] = {}
        self._notifications: list[tuple[float, dict]] = []  # (arrival time, message), not yet waited for
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.stderr = bytearray()  # drained as it comes, so a talkative server never blocks on a full pipe
        threading.Thread(target=lambda: self.stderr.extend(b"".join(iter(self.process.stderr.readline, b""))),
                         daemon=True).start()  # fmt: skip

    # --- wire ----------------------------------------------------------------------------
    def _send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:  # a request from the server (registrations...)
                self._send({"id": message["id"], "result": None})
            elif "id" in message:
                with self._arrived:
                    self._responses[message["id"]] = message
                    self._arrived.notify_all()
            else:
                with self._arrived:
                    self._notifications.append((time.perf_counter(), message))
                    self._arrived.notify_all()

    # --- messages ------------------------------------------------------------------------
    def request(self, method: str, params: Any) -> Any:
        self._next_id += 1
        ident = self._next_id
        self._send({"id": ident, "method": method, "params": params})
        deadline = time.monotonic() + _TIMEOUT
        with self._arrived:
            while ident not in self._responses:
                if not self._arrived.wait(deadline - time.monotonic()):
                    raise TimeoutError(f"no answer to {method}")
            response = self._responses.pop(ident)
        if "error" in response:
            raise RuntimeError(f"{method} failed: {response['error']}")
        return response["result"]

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def wait_for(self, method: str, where: Callable[[dict], bool] = lambda params: True) -> tuple[float, dict]:
        """The first notification ``method`` whose params satisfy ``where``, with the time it arrived;
        earlier ones that do not are kept for later waits."""
        deadline = time.monotonic() + _TIMEOUT
        with self._arrived:
            while True:
                for index, (arrived, message) in enumerate(self._notifications):
                    if message.get("method") == method and where(message["params"]):
                        del self._notifications[index]
                        return arrived, message["params"]
                if not self._arrived.wait(deadline - time.monotonic()):
                    raise TimeoutError(f"no {method} notification")

    # --- an editor's steps ---------------------------------------------------------------
    def initialize(self, capabilities: dict | None = None) -> dict:
        result = self.request("initialize", {"processId": None, "rootUri": self.root.as_uri(),
                                             "capabilities": capabilities or {}})  # fmt: skip
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, version: int = 1) -> list[dict]:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version,
                                                              "text": text}})  # fmt: skip
        return self.diagnostics(uri, version)

    def change(self, uri: str, version: int, changes: list[dict]) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": changes})  # fmt: skip

    def diagnostics(self, uri: str, version: int) -> list[dict]:
        _, params = self.wait_for("textDocument/publishDiagnostics",
                                  lambda p: p["uri"] == uri and p.get("version") == version)  # fmt: skip
        return params["diagnostics"]

    def close(self) -> int:
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            return self.process.wait(timeout=_TIMEOUT)
        finally:
            self.process.stdin.close()


def apply_edits(text: str, edits: list[dict]) -> str:
    """``text`` with LSP text edits applied (positions in UTF-16, as the tests negotiate)."""
    lines = text.splitlines(keepends=True) or [""]

    def offset(position: dict) -> int:
        before = sum(len(line) for line in lines[: position["line"]])
        line = lines[position["line"]] if position["line"] < len(lines) else ""
        units = 0
        for index, char in enumerate(line):
            if units >= position["character"]:
                return before + index
            units += 2 if ord(char) > 0xFFFF else 1
        return before + len(line)

    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                       reverse=True):  # fmt: skip
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
        lines = text.splitlines(keepends=True) or [""]
    return text
