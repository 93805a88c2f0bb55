"""An integrator's webhook endpoints for the API tests.

Every request to /hook/<name> is verified by the standardwebhooks library (the Standard
Webhooks specification's own, from PyPI) under that endpoint's secret; what verifies is kept
in the order it arrived. Each endpoint can be told to answer as if down (503), to be slow, or
to answer normally. It prints its port on its first line, then serves until killed.

    POST /control {"endpoint": "a", "secret": "whsec_...", "mode": "ok"|"down", "delay": 0.0}
    GET  /received/<name>  ->  {"received": [{"id", "type", "data", "at"}], "refused": n}
"""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook

lock = threading.Lock()
endpoints = {}


def endpoint(name):
    return endpoints.setdefault(name, {"secret": None, "mode": "ok", "delay": 0.0, "received": [], "refused": 0})


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the sender went away (a test kills it on purpose)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        if self.path == "/control":
            change = json.loads(body)
            with lock:
                e = endpoint(change.pop("endpoint"))
                e.update(change)
            return self.reply(200, {"ok": True})
        if not self.path.startswith("/hook/"):
            return self.reply(404, {"error": "no such path"})
        name = self.path[len("/hook/"):]
        with lock:
            e = endpoint(name)
            mode, delay, secret = e["mode"], e["delay"], e["secret"]
        if delay:
            time.sleep(delay)
        if mode == "down":
            return self.reply(503, {"error": "down for maintenance"})
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            payload = Webhook(secret).verify(body, headers)
        except Exception as err:  # the library's refusal, whatever its kind
            with lock:
                e["refused"] += 1
            return self.reply(400, {"error": str(err)})
        with lock:
            e["received"].append(
                {"id": headers["webhook-id"], "type": payload["type"], "data": payload["data"], "at": time.time()}
            )
        return self.reply(200, {"ok": True})

    def do_GET(self):
        if not self.path.startswith("/received/"):
            return self.reply(404, {"error": "no such path"})
        with lock:
            e = endpoint(self.path[len("/received/"):])
            return self.reply(200, {"received": list(e["received"]), "refused": e["refused"]})


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a sender killed mid-request is expected, not news


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
