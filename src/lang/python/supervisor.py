"""Command runner inside a docker sandbox, started once per container by one `docker exec`.

Never run main() outside a container: once idle it kills every process it may
signal (kill(-1)), which on a host is every process of the user, or all of them as
root. main() refuses to start as root or outside a Docker container.

A `docker exec` per command costs a runc exec (tens to hundreds of ms); this
keeps one exec open and spawns commands itself. It implements the protocol that
src/sandbox/supervisor.ts defines (the host's side, the one definition): a
per-runner key first on stdin, then one JSON request per line on stdin, and on
stdout one message per line, `<hmac-sha256 hex> <json>`, so nothing the tests
write can pass for a reply (see docs/security.md). Command output travels
base64-encoded in "data" messages of at most CHUNK bytes before the final reply,
so no line is longer than the host's line cap.
"""

import base64
import ctypes
import errno
import hashlib
import hmac
import json
import os
import signal
import subprocess
import sys
import threading

_out_lock = threading.Lock()
# Commands running now; guarded so a stray sweep never races a spawn.
_active = 0
_active_lock = threading.Lock()
# Past the deadline, how long to wait for pipes held open by escaped processes.
_DRAIN_GRACE_S = 2.0
# Raw output bytes per data message: 64 KiB of base64, far under the host's line cap.
CHUNK = 48 * 1024
PR_SET_DUMPABLE = 4
_key = b""


def _harden():
    """Not dumpable: the tests (same uid) can no longer open /proc/<pid>/fd, mem or environ
    of this process, nor ptrace it. Fails loudly; the host then runs each command by docker exec."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")


def _send(obj):
    body = json.dumps(obj).encode()
    mac = hmac.new(_key, body, hashlib.sha256).hexdigest().encode()
    with _out_lock:
        sys.stdout.buffer.write(mac + b" " + body + b"\n")
        sys.stdout.buffer.flush()


def _drain(pipe, cap, result):
    """Keeps the first `cap` bytes, counts and drops the rest, never blocking the writer."""
    kept = bytearray()
    total = 0
    while True:
        chunk = pipe.read1(1 << 16)
        if not chunk:
            break
        total += len(chunk)
        if len(kept) < cap:
            kept += chunk[: cap - len(kept)]
    result.append(bytes(kept))
    result.append(total)


def _feed(pipe, data):
    try:
        if data:
            pipe.write(data)
        pipe.close()
    except OSError:
        pass  # the command exited without reading its stdin


def _kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass  # already gone


def _run(req):
    reply = {"id": req["id"], "exit": None, "timedOut": False,
             "stdoutBytes": 0, "stderrBytes": 0, "spawnError": None}
    env = dict(os.environ)
    env.update(req.get("env") or {})
    stdin = base64.b64decode(req["stdin"]) if req.get("stdin") is not None else None
    global _active
    with _active_lock:
        try:
            proc = subprocess.Popen(
                req["argv"], cwd=req["cwd"], env=env,
                stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                # Own session and process group: a timeout kills the whole tree.
                start_new_session=True,
            )
        except OSError as e:
            reply["exit"] = 127 if e.errno == errno.ENOENT else 126
            reply["spawnError"] = "hypofix: cannot run %s: %s" % (req["argv"][0][:200], e)
            _send(reply)
            return
        _active += 1

    out, err = [], []
    threads = [threading.Thread(target=_drain, args=(proc.stdout, req["cap"], out), daemon=True),
               threading.Thread(target=_drain, args=(proc.stderr, req["cap"], err), daemon=True)]
    if stdin is not None:
        threads.append(threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True))
    for t in threads:
        t.start()
    try:
        code = proc.wait(timeout=req["timeout"])
    except subprocess.TimeoutExpired:
        reply["timedOut"] = True
        _kill_group(proc.pid)
        code = proc.wait()
    # Background processes the command left behind would hold the pipes open: end them with it.
    _kill_group(proc.pid)
    with _active_lock:
        _active -= 1
        if _active == 0:
            # Idle: whatever still runs escaped its group (setsid, daemons). kill(-1)
            # spares PID 1 and this process.
            try:
                os.kill(-1, signal.SIGKILL)
            except OSError:
                pass  # nothing left to signal
    for t in threads:
        t.join(_DRAIN_GRACE_S)
    if not reply["timedOut"] and code >= 0:
        reply["exit"] = code
    for name, result in (("stdout", out), ("stderr", err)):
        if result:
            kept, reply[name + "Bytes"] = result
            for at in range(0, len(kept), CHUNK):
                _send({"id": req["id"], "stream": name, "data": base64.b64encode(kept[at:at + CHUNK]).decode()})
    _send(reply)


def main():
    global _key
    # Its idle sweep is kill(-1): outside a sandbox container that is the whole machine.
    if os.getuid() == 0 or not os.path.exists("/.dockerenv"):
        raise SystemExit("hypofix runner: runs only as the sandbox user inside a sandbox container")
    _harden()
    # The key arrives on stdin only: argv and the environment are readable from /proc.
    _key = bytes.fromhex(sys.stdin.buffer.readline().decode().strip())
    if len(_key) < 32:
        raise SystemExit("hypofix runner: no key on stdin")
    _send({"ready": True, "pid": os.getpid()})
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            threading.Thread(target=_run, args=(req,), daemon=True).start()
        except RuntimeError as e:
            # No thread when the pid limit is exhausted: answer, and keep serving.
            _send({"id": req["id"], "exit": 126, "timedOut": False, "stdoutBytes": 0, "stderrBytes": 0,
                   "spawnError": "hypofix: cannot start %s: %s" % (req["argv"][0][:200], e)})


if __name__ == "__main__":
    main()
