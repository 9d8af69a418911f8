"""svc's own `svc run` options (issue 15): told apart from parameters anywhere among the
flags, turned into the execute body's fields and the Idempotency-Key header, bad values
refused with a usage error naming the option."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skillgate_cli.run_options import PREFIX, OptionError, split
from tests.skillgate_cli.conftest import Gateway, only_error, svc, svc_process
from tests.skillgate_cli.fakes import FakeGateway, Reply

PATH = "/v1/google_drive/list_files"
DOC = "/v1/skills/google_drive/list_files"  # read when a short spelling may be a parameter
BASE = ("run", "google_drive", "list_files")


def sent(fake: FakeGateway, tmp_path: Path, *args: str) -> tuple[Any, Any]:
    """(the body svc sent, its headers) for `svc run google_drive list_files ARGS`."""
    fake.on("POST", PATH, Reply(200, {"status": 200, "data": {"files": []}}))
    r = svc(*BASE, *args, cwd=tmp_path, base_url=fake.url, key="sk_test")
    assert r.returncode == 0, (r.stdout, r.stderr)
    [call] = fake.calls("POST", PATH)
    return call.body, call.headers


@pytest.mark.parametrize(
    ("args", "fields"),
    [
        (("--dry-run",), {"dry_run": True}),
        (("--confirm", "cf_abc"), {"confirm": "cf_abc"}),
        (("--confirm=cf_abc",), {"confirm": "cf_abc"}),
        (("--all",), {"paginate": {}}),
        (("--all", "--max-items", "50"), {"paginate": {"max_items": 50}}),
        (("--max-pages", "3"), {"paginate": {"max_pages": 3}}),  # implies --all
        (("--max_items=7", "--max-pages=2"), {"paginate": {"max_items": 7, "max_pages": 2}}),
        (("--fields", "number,title,user.login"), {"fields": ["number", "title", "user.login"]}),
        (("--fields", "id", "--fields", "name,id"), {"fields": ["id", "name"]}),
        (("--max-bytes", "4096"), {"max_bytes": 4096}),
        (("--max-output", "2048"), {}),  # svc's own: nothing sent
        (("--retry", "--idempotency-key", "k1"), {}),  # a header, not a field
    ],
)
def test_run_contract_options_become_the_body_fields(
    fake: FakeGateway, tmp_path: Path, args: tuple[str, ...], fields: dict[str, Any]
) -> None:
    body, _ = sent(fake, tmp_path, "--page-size", "5", *args, "--q", "name contains 'x'")
    assert body == {
        "params": {"page_size": 5, "q": "name contains 'x'"},
        "as_typed": {"page_size": "5"},
        **fields,
    }


def test_run_contract_idempotency_key_is_the_header(fake: FakeGateway, tmp_path: Path) -> None:
    body, headers = sent(fake, tmp_path, "--idempotency-key", "order-42/try", "--q", "x")
    assert headers["Idempotency-Key"] == "order-42/try"
    assert body == {"params": {"q": "x"}}
    fake.clear()
    _, headers = sent(fake, tmp_path, "--q", "x")
    assert "Idempotency-Key" not in headers


def test_run_contract_options_before_the_names_count_too(fake: FakeGateway, tmp_path: Path) -> None:
    fake.on("POST", PATH, Reply(200, {"status": 200, "data": {}}))
    r = svc(
        "run", "--dry-run", "--fields", "id", "google_drive", "list_files", "--max-items", "5",
        cwd=tmp_path, base_url=fake.url, key="sk_test",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    [call] = fake.calls("POST", PATH)
    assert call.body == {
        "params": {},
        "dry_run": True,
        "fields": ["id"],
        "paginate": {"max_items": 5},
    }


def test_run_contract_a_parameter_named_like_an_option_goes_in_the_json(
    fake: FakeGateway, tmp_path: Path
) -> None:
    """Google Drive's own `fields` reaches `params`; `--fields` is svc's projection."""
    body, _ = sent(fake, tmp_path, '{"fields": "id"}')
    assert body == {"params": {"fields": "id"}}
    fake.clear()
    body, _ = sent(fake, tmp_path, '{"fields": "files(id,name)", "confirm": "x"}', "--fields", "a")
    assert body == {"params": {"fields": "files(id,name)", "confirm": "x"}, "fields": ["a"]}
    fake.clear()
    # After `--` everything is JSON: no option is looked for there.
    body, _ = sent(fake, tmp_path, "--q", "x", "--", '{"all": true}')
    assert body == {"params": {"q": "x", "all": True}}


def test_a_value_is_never_taken_for_an_option() -> None:
    """As `params.parse_args` reads them: `--name` before `--` is a flag; a value that
    starts with `--` is written `--name=value`."""
    args = ["--title", "--dry-run", "--body=--all", "--owner", "--max-items", "5", "--n", "-2"]
    options, rest = split(args)
    assert (options.dry_run, options.paginate) == (True, {"max_items": 5})
    assert rest == ["--title", "--body=--all", "--owner", "--n", "-2"]
    assert options.argv() == ["--dry-run", "--max-items=5"]
    assert options.argv(without="dry-run") == ["--max-items=5"]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--max-items", "0"), "--max-items expects a whole number from 1 to 10000, got '0'"),
        (("--max-items", "10001"), "--max-items expects a whole number from 1 to 10000"),
        (("--max-items", "many"), "--max-items expects a whole number"),
        (("--max-pages", "101"), "--max-pages expects a whole number from 1 to 100"),
        (("--max-pages", "2.5"), "--max-pages expects a whole number"),
        (("--max-bytes", "100"), "--max-bytes expects a whole number from 1024 or more"),
        (("--max-output", "-1"), "--max-output expects a whole number from 1024 or more"),
        (("--fields", "a,,b"), "--fields expects comma-separated dotted paths"),
        (("--fields", "user..login"), "--fields expects comma-separated dotted paths"),
        (("--fields", ",".join(f"f{i}" for i in range(101))), "--fields takes at most 100"),
        (("--idempotency-key", "a" * 256), "--idempotency-key expects 1 to 255 printable"),
        (("--idempotency-key", "clé"), "--idempotency-key expects 1 to 255 printable"),
        (("--confirm",), "--confirm needs a value (TOKEN)"),
        (("--confirm", "--dry-run"), "--confirm needs a value (TOKEN)"),
        (("--max-items",), "--max-items needs a value (N)"),
        (("--dry-run=yes",), "--dry-run takes no value, got 'yes'"),
    ],
)
def test_bad_option_values_are_usage_errors_naming_the_option(
    fake: FakeGateway, tmp_path: Path, args: tuple[str, ...], named: str
) -> None:
    r = svc(*BASE, "--q", "x", *args, cwd=tmp_path, base_url=fake.url, key="sk_test")
    line = only_error(r, 1)
    assert named in line
    assert json.loads(r.stdout) == {"error": "bad_request", "message": line.removeprefix("svc: ")}
    # Issue 23: a short spelling may be the endpoint's parameter, so svc reads the
    # endpoint's documentation first (this fake has none: the option stays svc's);
    # nothing is executed.
    assert [(q.method, q.path) for q in fake.requests] == [("GET", DOC)]
    with pytest.raises(OptionError, match=named.split(",")[0][:20]):
        split(list(args))
    # `--svc-NAME` is svc's whatever the endpoint declares: refused with nothing sent.
    fake.clear()
    spelled = [f"--{PREFIX}{a[2:]}" if a.startswith("--") else a for a in args]
    r = svc(*BASE, "--q", "x", *spelled, cwd=tmp_path, base_url=fake.url, key="sk_test")
    assert f"--{PREFIX}{named[2:]}" in only_error(r, 1)
    assert fake.requests == []


def test_a_bad_option_exits_1_from_the_real_binary(fake: FakeGateway, tmp_path: Path) -> None:
    r = svc_process(*BASE, "--all", "--max-pages", "0", cwd=tmp_path, base_url=fake.url, key="k")
    line = only_error(r, 1)
    assert "--max-pages expects a whole number from 1 to 100, got '0'" in line
    assert json.loads(r.stdout)["error"] == "bad_request"
    assert [(q.method, q.path) for q in fake.requests] == [("GET", DOC)]  # nothing executed


def test_max_output_zero_is_accepted() -> None:
    assert split(["--max-output", "0"])[0].max_output == 0
    assert split([])[0].max_output == 65536


def test_the_help_lists_the_options(gateway: Gateway, tmp_path: Path) -> None:
    generic = svc("run", "--help", cwd=tmp_path)
    endpoint = svc(
        "run", "github", "list_issues", "--help", cwd=tmp_path, base_url=gateway.url,
        key=gateway.key,
    )  # fmt: skip
    for r in (generic, endpoint):
        assert r.returncode == 0, r.stderr
        for option in ("--dry-run", "--confirm TOKEN", "--idempotency-key K", "--retry",
                       "--all", "--max-items N", "--max-pages P", "--fields a,b.c",
                       "--max-bytes N", "--max-output BYTES"):  # fmt: skip
            assert option in r.stdout, (option, r.stdout)
        assert """'{"fields": "files(id,name)"}'""" in " ".join(r.stdout.split())
    assert "Parameters:" in endpoint.stdout
    assert endpoint.stdout.index("Parameters:") < endpoint.stdout.index("--max-output")
