"""A loopback nginx answering 11 bytes of JSON on every path: the fast upstream."""

from __future__ import annotations

import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

CONF = """
daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    server {{
        listen 127.0.0.1:{port};
        keepalive_requests 1000000;
        location / {{
            default_type application/json;
            return 200 '{{"ok":true}}';
        }}
    }}
}}
"""


def start(directory: Path, port: int) -> subprocess.Popen[bytes]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    conf = directory / "nginx.conf"
    conf.write_text(CONF.format(dir=directory, port=port))
    proc = subprocess.Popen([nginx, "-c", str(conf), "-p", str(directory)])
    deadline = time.monotonic() + 10
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1):
                return proc
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("nginx did not start") from None
            time.sleep(0.05)
