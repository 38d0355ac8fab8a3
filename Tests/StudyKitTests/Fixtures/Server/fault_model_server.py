#!/usr/bin/env python3
"""A model server on loopback that misbehaves on purpose, for studykit's time tests.

--mode blackhole: accepts every connection and never answers a byte (a hung server).
--mode slots:     a llama-server double for discovery only: GET /v1/models, GET /props with a
                  2,048-token window and `total_slots: 2` (llama-server with --parallel 2, which is
                  not installed here), POST /tokenize (a token per four bytes); no generation.
--mode slow:      answers GET /v1/models at once (an OpenAI-compatible server with one model),
                  404 to other probes, and holds every POST to /v1/chat/completions open without
                  answering, printing "GENERATING" on stdout when one arrives (a generation
                  in progress), so a test knows when to send its signal.
--mode bigspec:   a plain OpenAI-compatible server (GET /v1/models, 404 elsewhere) whose
                  GET /openapi.json is a 5 MB JSON document sent without a Content-Length (as a
                  gateway's can be: LiteLLM's is 2 MB), so only reading it can tell its size.
Prints "PORT <n>" on its first line once it listens. Ends when stdin closes.
"""
import argparse
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def blackhole():
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    held = []

    def accept():
        while True:
            connection, _ = listener.accept()
            held.append(connection)  # kept open, never read from, never written to

    threading.Thread(target=accept, daemon=True).start()
    return listener.getsockname()[1]


class Quiet(BaseHTTPRequestHandler):
    """Keep-alive, no access log, and JSON answers."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def not_found(self):
        """Reads the request's body, then answers 404 without one."""
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()


class Slow(Quiet):
    def do_GET(self):
        if self.path.rstrip("/") == "/v1/models":
            self.answer(200, {"object": "list", "data": [{"id": "slow-model", "object": "model"}]})
            return
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        if "/chat/completions" not in self.path:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        print("GENERATING", flush=True)
        time.sleep(3600)


class BigSpec(Quiet):
    def do_GET(self):
        path = self.path.rstrip("/")
        if path == "/v1/models":
            self.answer(200, {"object": "list", "data": [{"id": "bigspec-model", "object": "model"}]})
        elif path == "/openapi.json":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            filler = json.dumps({"description": "x" * 1000})
            try:
                self.wfile.write(b'{"openapi": "3.1.0", "paths": {}, "components": [')
                for index in range(5 * 1024):
                    self.wfile.write((("," if index else "") + filler).encode())
                self.wfile.write(b"]}")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading at its cap
        else:
            self.answer(404, {"detail": "Not Found"})

    def do_POST(self):
        self.not_found()


class Slots(Quiet):
    def do_GET(self):
        path = self.path.rstrip("/")
        if path == "/v1/models":
            self.answer(200, {"object": "list", "data": [{"id": "slots-model", "object": "model"}]})
        elif path == "/props":
            self.answer(200, {"default_generation_settings": {"n_ctx": 2048}, "total_slots": 2, "build_info": "double"})
        else:
            self.answer(404, {"error": {"code": 404, "message": "File Not Found", "type": "not_found_error"}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length) or b"{}")
        if self.path.rstrip("/") == "/tokenize":
            content = request.get("content", "")
            self.answer(200, {"tokens": [1] * ((len(content.encode()) + 3) // 4)})
        else:
            self.answer(404, {"error": {"code": 404, "message": "File Not Found", "type": "not_found_error"}})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["blackhole", "slow", "slots", "bigspec"], required=True)
    args = parser.parse_args()
    if args.mode == "blackhole":
        port = blackhole()
    else:
        handler = {"slots": Slots, "slow": Slow, "bigspec": BigSpec}[args.mode]
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.server_address[1]
    print(f"PORT {port}", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
