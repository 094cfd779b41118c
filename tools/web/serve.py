#!/usr/bin/env python3
"""Serve build/web on http://localhost:8000 (`make web-serve`) until Ctrl-C.

    python tools/web/serve.py [--port 8000] [--dir build/web]   (--port 0: any free port)

A plain static file server (Python's http.server) with the MIME types the page
needs spelled out, so .js and .wasm are right whatever the system's tables say.
"""
import argparse
import functools
import http.server
import os
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TYPES = {".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json",
         ".html": "text/html", ".css": "text/css", ".png": "image/png"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")   # a rebuilt site is seen at once
        super().end_headers()

    def log_message(self, format, *args):
        pass


def start(folder, port=0, host="127.0.0.1"):
    """A server in a background thread; returns it (server.server_port is the port)."""
    handler = functools.partial(Handler, directory=folder)
    server = http.server.ThreadingHTTPServer((host, port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", default=os.path.join(ROOT, "build", "web"))
    args = parser.parse_args()
    if not os.path.exists(os.path.join(args.dir, "index.html")):
        print("web-serve: no site in %s: run make web" % args.dir, file=sys.stderr)
        return 1
    try:
        server = start(args.dir, args.port, "")
    except OSError as e:
        # (make's PORT is the board's serial port: the web server's is WEBPORT)
        print("web-serve: cannot listen on port %d (%s): try another, make web-serve WEBPORT=%d"
              " (or serve.py --port %d)" % (args.port, e.strerror, args.port + 1, args.port + 1),
              file=sys.stderr)
        return 1
    print("Play in your browser: http://localhost:%d   (Ctrl-C stops the server)"
          % server.server_port, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
