"""nginx running the repository's own `deploy/nginx/tourney.conf`, on free ports, for tests and
benchmarks.

The site file is used as written, with only what differs here replaced: the upstream servers
(the test's uvicorn processes), the listening ports and a self-signed certificate. Each
replacement must find its text, so a change to the file that a test would no longer exercise
fails loudly. A main configuration of our own wraps it (pid, logs and temporary files in a
temporary folder; connection limits for thousands of streams).
"""

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.processes import REPO, free_port

SITE = REPO / "deploy" / "nginx" / "tourney.conf"
UPSTREAM_LINES = (
    "    server 127.0.0.1:8001 max_fails=1 fail_timeout=3s;\n"
    "    server 127.0.0.1:8002 max_fails=1 fail_timeout=3s;\n"
)
MAIN = """\
daemon off;
worker_processes {workers};
worker_rlimit_nofile {files};
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
{user}
events {{ worker_connections {connections}; }}
http {{
    access_log off;
    client_body_temp_path {dir}/client_body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/tourney.conf;
}}
"""


def nginx_missing() -> str | None:
    """Why nginx cannot run here, or None."""
    if shutil.which("nginx") is None:
        return "nginx is not installed (apt-get install nginx-light)"
    if shutil.which("openssl") is None:
        return "openssl is not installed"
    return None


def _replace(text: str, old: str, new: str) -> str:
    assert old in text, f"deploy/nginx/tourney.conf no longer has {old!r}"
    return text.replace(old, new)


def render_site(upstreams: list[str], http_port: int, https_port: int, cert: Path, key: Path):
    """deploy/nginx/tourney.conf with this run's upstreams, ports and certificate."""
    text = SITE.read_text()
    servers = "".join(
        f"    server {address} max_fails=1 fail_timeout=3s;\n" for address in upstreams
    )
    text = _replace(text, UPSTREAM_LINES, servers)
    text = _replace(text, "    listen [::]:80;\n", "")
    text = _replace(text, "    listen [::]:443 ssl http2;\n", "")
    text = _replace(text, "listen 80;", f"listen 127.0.0.1:{http_port};")
    text = _replace(text, "listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
    text = _replace(text, "/etc/ssl/certs/tourney.example.org.pem", str(cert))
    text = _replace(text, "/etc/ssl/private/tourney.example.org.key", str(key))
    text = _replace(text, "/var/cache/nginx/tourney", str(cert.parent / "cache"))
    return text


class NginxProxy:
    """`nginx` in the foreground in front of `upstreams` ("host:port"); `https` and `http` are
    its base URLs. `connections` sizes it for that many simultaneous streams."""

    def __init__(self, upstreams: list[str], connections: int = 4096, workers: int = 1):
        self.dir = Path(tempfile.mkdtemp(prefix="tourney-nginx-"))
        self.dir.chmod(0o755)  # nginx's workers (user nobody under root) use the temp paths
        self.http_port, self.https_port = free_port(), free_port()
        cert, key = self.dir / "cert.pem", self.dir / "key.pem"
        subprocess.run(
            [
                *("openssl", "req", "-x509", "-nodes", "-days", "1", "-subj", "/CN=localhost"),
                *("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"),
                *("-keyout", str(key), "-out", str(cert)),
            ],
            check=True,
            capture_output=True,
            timeout=30,
        )
        site = render_site(upstreams, self.http_port, self.https_port, cert, key)
        (self.dir / "tourney.conf").write_text(site)
        (self.dir / "nginx.conf").write_text(
            MAIN.format(
                dir=self.dir,
                workers=workers,
                connections=connections * 2 + 512,
                files=connections * 4 + 1024,
                user="user root;" if os.geteuid() == 0 else "",
            )
        )
        self.process: subprocess.Popen | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def https(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def _args(self, *extra: str) -> list[str]:
        conf = str(self.dir / "nginx.conf")
        return ["nginx", "-p", str(self.dir), "-c", conf, "-e", str(self.dir / "error.log"), *extra]

    def check(self) -> str:
        """`nginx -t` on the rendered configuration; its output."""
        done = subprocess.run(self._args("-t"), capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stderr

    def start(self) -> None:
        self.process = subprocess.Popen(
            self._args(), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 10
        while True:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.https_port), timeout=0.5),
            ):
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start\n{self.log()}")
            time.sleep(0.02)  # polling a starting process

    def log(self) -> str:
        path = self.dir / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: fast shutdown
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "NginxProxy":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
