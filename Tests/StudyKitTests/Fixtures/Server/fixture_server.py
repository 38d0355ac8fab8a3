#!/usr/bin/env python3
"""A scripted HTTP server on loopback for studykit's tests.

Serves files from --root, plus routes that produce the faults the importer and the
transport must handle. Prints "PORT <n>" on its first line once it listens.
"""
import argparse
import json
import mimetypes
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    def log_message(self, *args):
        pass

    def send_body(self, status, body, content_type, extra=None, length=True):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        if length:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
            self.wfile.flush()

    def redirect(self, location, status=302):
        self.send_body(status, b"", "text/plain", {"Location": location})

    def do_HEAD(self):
        self.do_GET()

    def do_POST(self):
        self.do_GET()

    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        parts = [p for p in url.path.split("/") if p]
        if parts[:1] == ["redirect"] and len(parts) == 2:
            n = int(parts[1])
            target = query.get("to", ["/plain"])[0]
            return self.redirect(f"/redirect/{n - 1}?to={target}" if n > 0 else target)
        if parts == ["loop"]:
            return self.redirect("/loop")
        if parts[:1] == ["status"] and len(parts) == 2:
            return self.send_body(int(parts[1]), b"status page", "text/html")
        if parts[:1] == ["api"] and len(parts) >= 2:
            # A hostile OpenAI-compatible API: every path under /api/<status> fails with that
            # status and an error message that echoes the request's credentials and URL in full.
            length = int(self.headers.get("Content-Length", "0") or 0)
            if length:
                self.rfile.read(length)
            status = int(parts[1])
            code = "insufficient_quota" if status == 429 else "invalid_api_key"
            echoed = f"{self.headers.get('Authorization', '')} {self.headers.get('X-Api-Key', '')} {self.path}"
            body = json.dumps({"error": {"message": f"refused {echoed}", "type": code, "code": code}})
            return self.send_body(status, body.encode(), "application/json")
        if parts[:1] == ["type"]:
            mime = "/".join(parts[1:])
            return self.send_body(200, b"\x00\x01binary-ish", mime)
        if parts == ["plain"]:
            return self.send_body(200, b"Plain text served over HTTP.\n", "text/plain; charset=utf-8")
        if parts == ["big"]:
            n = int(query.get("bytes", ["1000"])[0])
            chunked = query.get("length", ["yes"])[0] == "no"
            body = (b"<p>" + b"a" * max(0, n - 7) + b"</p>")[:n]
            return self.send_body(200, body, "text/html", length=not chunked)
        if parts == ["slow"]:
            time.sleep(float(query.get("seconds", ["60"])[0]))
            return self.send_body(200, b"late", "text/plain")
        if parts == ["echo"]:
            length = int(self.headers.get("Content-Length", "0") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            payload = {"method": self.command, "path": self.path,
                       "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
            return self.send_body(200, json.dumps(payload).encode(), "application/json")
        path = os.path.realpath(os.path.join(self.root, *parts))
        if not path.startswith(os.path.realpath(self.root)) or not os.path.isfile(path):
            return self.send_body(404, b"not found", "text/plain")
        with open(path, "rb") as handle:
            body = handle.read()
        forced = query.get("type", [None])[0]
        mime = forced or mimetypes.guess_type(path)[0] or "application/octet-stream"
        if mime.startswith("text/") and "charset" not in mime:
            mime += "; charset=utf-8"
        return self.send_body(200, body, mime)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=".")
    args = parser.parse_args()
    Handler.root = args.root
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    # Exit with the parent: the test closes our stdin when it is done.
    import threading
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
