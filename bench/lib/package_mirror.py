"""A PEP 503 package index of the wheels in one folder, for tests and benchmarks (stdlib only).

    python3 package_mirror.py FOLDER HOST

Prints the port it listens on (chosen by the system), then one line per request:
"<method> <path> <status> auth=<yes|no>". With MIRROR_AUTH=user:password in its environment
every request must carry those credentials (Basic), else 401. With MIRROR_CERT and MIRROR_KEY
(PEM files) it speaks HTTPS.
"""

import base64
import html
import http.server
import os
import re
import ssl
import sys

FOLDER, HOST = sys.argv[1], sys.argv[2]
AUTH = os.environ.get("MIRROR_AUTH")
EXPECTED = "Basic " + base64.b64encode(AUTH.encode()).decode() if AUTH else None


def normalized(name):
    return re.sub(r"[-_.]+", "-", name).lower()


class Index(http.server.BaseHTTPRequestHandler):
    # Every answer has a length: connections stay open, and a TLS one is never cut mid-session.
    protocol_version = "HTTP/1.1"

    def answer(self, body_wanted):
        authorized = EXPECTED is not None and self.headers.get("Authorization") == EXPECTED
        status, kind, body = self.route(EXPECTED is None or authorized)
        print(f"{self.command} {self.path} {status} auth={'yes' if authorized else 'no'}", flush=True)
        self.send_response(status)
        if status == 401:
            self.send_header("WWW-Authenticate", 'Basic realm="mirror"')
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body_wanted:
            self.wfile.write(body)

    def route(self, allowed):
        if not allowed:
            return 401, "text/plain", b"credentials needed\n"
        wheels = sorted(f for f in os.listdir(FOLDER) if f.endswith(".whl"))
        project = re.fullmatch(r"/simple/([^/]+)/", self.path)
        if project:
            links = [
                f'<a href="/files/{html.escape(w)}">{html.escape(w)}</a><br>'
                for w in wheels
                if normalized(w.split("-")[0]) == normalized(project.group(1))
            ]
            if links:
                return 200, "text/html", ("<!DOCTYPE html><html><body>" + "".join(links) + "</body></html>").encode()
        file = re.fullmatch(r"/files/([^/]+\.whl)", self.path)
        if file and file.group(1) in wheels:
            with open(os.path.join(FOLDER, file.group(1)), "rb") as f:
                return 200, "application/octet-stream", f.read()
        return 404, "text/plain", b"not found\n"

    def do_GET(self):
        self.answer(True)

    def do_HEAD(self):
        self.answer(False)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer((HOST, 0), Index)
if os.environ.get("MIRROR_CERT"):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.environ["MIRROR_CERT"], os.environ["MIRROR_KEY"])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
