"""End to end by client ID metadata document: the MCP SDK's OAuth client with
`client_metadata_url` (it only sends https URLs) against a server process, the
document served over TLS from a loopback address with a certificate made here.
The server trusts that certificate (`SSL_CERT_FILE`, OpenSSL's own variable) and
may fetch from loopback (`SKILLGATE_OAUTH_CIMD_ALLOW_LOOPBACK`, tests only);
Chromium signs in and allows. No registration happens: the client's id is the URL."""

from __future__ import annotations

import datetime
import ipaddress
import json
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from playwright.async_api import Browser

from tests import process
from tests.process import Server, fixture_env, serve
from tests.skillgate.dashboard.test_browser import CHROMIUM, new_page
from tests.skillgate.doors.mcp.conftest import operator
from tests.skillgate.mcpauth.test_sdk_browser import (
    EMAIL,
    PASSWORD,
    Memory,
    User,
    browser,
    signed_in_client,
)
from tests.upstream import Provider

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not at /usr/bin/chromium"),
]
__all__ = ["browser"]
NAME = "Metadata document client"


def _certificate(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class Documents:
    """An https server on 127.0.0.1 serving one client metadata document, counting GETs."""

    def __init__(self, cert: Path, key: Path) -> None:
        self.document: dict[str, object] = {}
        self.fetches = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner.fetches += 1
                body = json.dumps(owner.document).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.httpd.server_address[1]}/oauth/client.json"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Documents]:
    cert, key = _certificate(tmp_path_factory.mktemp("tls"))
    served = Documents(cert, key)
    served.cert = cert  # type: ignore[attr-defined]
    yield served
    served.stop()


@pytest.fixture(scope="module")
def cimd_server(
    tmp_path_factory: pytest.TempPathFactory, provider_server: Provider, documents: Documents
) -> Iterator[Server]:
    cwd = tmp_path_factory.mktemp("oauth-cimd")
    env = fixture_env(
        provider_server.url,
        SKILLGATE_OAUTH_CIMD_ALLOW_LOOPBACK="true",
        SSL_CERT_FILE=str(documents.cert),  # type: ignore[attr-defined]
    )
    operator(
        cwd,
        env,
        ["db", "upgrade"],
        ["users", "create", "--email", EMAIL, "--password", PASSWORD, "--plan", "pro"],
    )
    with serve(cwd, env=env) as running:
        yield running


async def test_the_sdk_client_signs_in_by_metadata_document(
    cimd_server: Server, browser: Browser, documents: Documents
) -> None:
    page = await new_page(browser)
    callback = f"http://127.0.0.1:{process.free_port()}/callback"
    documents.document = {
        "client_id": documents.url,
        "client_name": NAME,
        "redirect_uris": [callback],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }
    user = User(page, callback, name=NAME)
    await user.start()
    storage = Memory()
    async with signed_in_client(cimd_server, user, storage, documents.url) as client:
        tools = await client.list_tools()
        assert "run_skill" in {t.name for t in tools.tools}
    assert storage.client is not None
    assert storage.client.client_id == documents.url  # no registration: the URL is the id
    assert storage.tokens is not None
    assert storage.tokens.access_token.startswith("sgo_at_")
    assert documents.fetches >= 1
    await page.goto(cimd_server.url + "/keys")
    await page.locator(".app-row .app-name").filter(has_text=NAME).wait_for()
