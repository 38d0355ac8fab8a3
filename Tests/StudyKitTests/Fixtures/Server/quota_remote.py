#!/usr/bin/env python3
"""A stand-in for a hosted OpenAI-compatible API, for studykit's quota tests.

POST /v1/chat/completions answers, after --delay seconds, either a 429 `insufficient_quota`
(--mode quota) or a completion whose content is the file --answer (--mode answer); with
--mode drop-first the first chat request is read and the connection closed without a word (an
empty reply), and the others are answered. Every chat
POST is counted; GET /count returns {"chat": n}. Prints "PORT <n>" once it listens.
"""
import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COUNT = 0
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = "answer"
    answer = "{}"
    delay = 0.0

    def log_message(self, *args):
        pass

    def send_json(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/count":
            with LOCK:
                return self.send_json(200, {"chat": COUNT})
        if self.path == "/v1/models":
            return self.send_json(200, {"object": "list", "data": [{"id": "stand-in", "object": "model"}]})
        self.send_json(404, {"error": {"message": "not found"}})

    def do_POST(self):
        global COUNT
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        if self.path != "/v1/chat/completions":
            return self.send_json(404, {"error": {"message": "not found"}})
        with LOCK:
            COUNT += 1
            first = COUNT == 1
        time.sleep(self.delay)
        if self.mode == "drop-first" and first:
            self.close_connection = True
            return
        if self.mode == "quota":
            return self.send_json(429, {"error": {
                "message": "You exceeded your current quota, please check your plan and billing details.",
                "type": "insufficient_quota", "param": None, "code": "insufficient_quota"}})
        self.send_json(200, {
            "id": "c1", "object": "chat.completion", "model": "stand-in",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": self.answer}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 60, "total_tokens": 180}})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["quota", "answer", "drop-first"], default="answer")
    parser.add_argument("--answer", help="file holding the completion's content")
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    Handler.mode = args.mode
    Handler.delay = args.delay
    if args.answer:
        with open(args.answer, encoding="utf-8") as f:
            Handler.answer = f.read()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown()), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
