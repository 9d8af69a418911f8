"""What `skillgate catalog import` trusts: no credentials in a URL, a private address
only with --allow-private-network (recorded in the file, shown by `catalog table`),
and the file it writes readable by its owner only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from skillgate.catalog.loader import CatalogError, load_catalog
from skillgate.cli.catalog import catalog
from tests.skillgate.catalog.importers.documents import NOTES, PETSTORE


def _import(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(catalog, ["import", "openapi", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_credentials_in_a_url_are_refused(tmp_path: Path) -> None:
    doc = tmp_path / "creds.yaml"
    doc.write_text(PETSTORE.read_text().replace("url: https://{", "url: https://admin:pw@{", 1))
    assert "admin:pw@" in doc.read_text()
    code, out, err = _import(str(doc), "--slug", "creds", "--out", "-")
    assert code == 1
    assert out == ""
    assert f"skillgate: {doc}: servers: a server URL carries credentials" in err
    code, out, err = _import(str(NOTES), "--slug", "notes", "--out", "-",
                             "--base-url", "https://admin:pw@notes.example.com")  # fmt: skip
    assert code == 1
    assert "base_url must not carry credentials (user:password@)" in err
    assert "admin:pw" not in out
    (tmp_path / "catalog").mkdir()
    written = tmp_path / "catalog" / "hand.yaml"
    good = CliRunner().invoke(catalog, ["import", "openapi", str(NOTES), "--slug", "hand",
                                        "--out", str(written)])  # fmt: skip
    assert good.exit_code == 0, good.output
    written.write_text(written.read_text().replace("https://", "http://admin:pw@", 1))
    with pytest.raises(CatalogError, match="base_url must not carry credentials"):
        load_catalog([written], shipped=False)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/api",
        "http://169.254.169.254/latest",
        "http://10.1.2.3",
        "http://[::1]:8080",
        "http://[::ffff:192.168.0.1]",
        "http://localhost:9000",
    ],
)
def test_a_private_base_url_needs_the_operators_flag(url: str, tmp_path: Path) -> None:
    code, out, err = _import(str(NOTES), "--slug", "notes", "--out", "-", "--base-url", url)
    assert code == 1
    assert out == ""
    assert "is a loopback, private or link-local address" in err
    assert "pass --allow-private-network" in err
    out_file = tmp_path / "notes.yaml"
    code, _, err = _import(str(NOTES), "--slug", "notes", "--out", str(out_file),
                           "--base-url", url, "--allow-private-network")  # fmt: skip
    assert code == 0, err
    data = yaml.safe_load(out_file.read_text())
    assert data["allow_private_network"] is True
    table = CliRunner().invoke(catalog, ["table", str(out_file)])
    assert table.exit_code == 0, table.output
    assert "| Notes (private network allowed) | `notes` |" in table.stdout
    assert "| GitHub | `github` |" in table.stdout  # the others say nothing


def test_a_public_base_url_is_not_marked(tmp_path: Path) -> None:
    out_file = tmp_path / "notes.yaml"
    code, _, err = _import(str(NOTES), "--slug", "notes", "--out", str(out_file))
    assert code == 0, err
    assert "allow_private_network" not in out_file.read_text()
    table = CliRunner().invoke(catalog, ["table", str(out_file)])
    assert "| Notes | `notes` |" in table.stdout


def test_the_catalog_file_is_written_for_its_owner_only(tmp_path: Path) -> None:
    out_file = tmp_path / "notes.yaml"
    out_file.write_text("old")
    out_file.chmod(0o644)  # a file it replaces keeps no wider mode
    old_umask = os.umask(0o022)
    try:
        code, _, err = _import(str(NOTES), "--slug", "notes", "--out", str(out_file))
        fresh = tmp_path / "fresh.yaml"
        code2, _, err2 = _import(str(PETSTORE), "--slug", "fresh", "--out", str(fresh))
    finally:
        os.umask(old_umask)
    assert code == 0, err
    assert code2 == 0, err2
    assert stat.S_IMODE(out_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    assert yaml.safe_load(out_file.read_text())["slug"] == "notes"
