#!/usr/bin/env python3
"""A model server on loopback that misbehaves on purpose, for studykit's time tests.

--mode blackhole: accepts every connection and never answers a byte (a hung server).
--mode slow:      answers GET /v1/models at once (an OpenAI-compatible server with one model),
                  404 to other probes, and holds every POST to /v1/chat/completions open without
                  answering, printing "GENERATING" on stdout when one arrives (a generation
                  in progress), so a test knows when to send its signal.
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


class Slow(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.rstrip("/") == "/v1/models":
            body = json.dumps({"object": "list", "data": [{"id": "slow-model", "object": "model"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["blackhole", "slow"], required=True)
    args = parser.parse_args()
    if args.mode == "blackhole":
        port = blackhole()
    else:
        server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.server_address[1]
    print(f"PORT {port}", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
