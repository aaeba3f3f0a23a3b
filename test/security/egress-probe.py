"""Run as a repository's setup by setup-egress-allowlist.test.ts: what can this setup reach?

Reads probe-targets.json from the working directory, tries each target, installs what the test
asks, and writes everything it saw (its own environment included) to /opt/hypofix/probe.json,
which the committed environment image keeps. Connects only to the addresses the test names.
"""

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

targets = json.load(open("probe-targets.json"))


def default_gateway():
    for line in open("/proc/net/route").read().splitlines()[1:]:
        fields = line.split()
        if fields[1] == "00000000":
            return socket.inet_ntoa(bytes.fromhex(fields[2])[::-1])
    return None


def connect(target):
    address, port = target.rsplit(":", 1)
    try:
        socket.create_connection((address, int(port)), timeout=4).close()
        return "connected"
    except OSError as err:
        return f"{type(err).__name__}: {err}"


def fetch(url):
    # Through the proxy the setup was given, if any (urllib reads HTTP_PROXY and HTTPS_PROXY).
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code
    except (urllib.error.URLError, OSError) as err:
        return str(getattr(err, "reason", err))


gateway = default_gateway()
direct = list(targets["direct"])
if gateway:
    direct.append(f"{gateway}:{targets['hostPort']}")
with ThreadPoolExecutor(len(direct)) as pool:
    reached = dict(zip(direct, pool.map(connect, direct)))
proxied = {url: fetch(url) for url in targets["viaProxy"]} if os.environ.get("HTTPS_PROXY") else {}
installs = {
    " ".join(argv): subprocess.run([sys.executable, "-m", "pip", "install", *argv]).returncode
    for argv in targets["installs"]
}
os.makedirs("/opt/hypofix", exist_ok=True)
with open("/opt/hypofix/probe.json", "w") as out:
    json.dump(
        {"gateway": gateway, "direct": reached, "viaProxy": proxied, "installs": installs, "env": dict(os.environ)},
        out,
        indent=1,
    )
sys.exit(1 if any(installs.values()) else 0)
