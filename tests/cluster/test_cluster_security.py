"""Who may use the cluster, and what the coordinator accepts from it: TLS under `local:N` and
with a scheduler's certificates (the recipe of docs/cluster.md), and the replay of every record."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="the cluster tests need Dask's distributed: "
                                                        "pip install 'hexarena[test]' (or 'hexarena[cluster]')")
import cloudpickle  # noqa: E402  (installed with distributed)

from hexarena.referee.tournament import config as config_mod  # noqa: E402
from hexarena.referee.tournament.schedule import schedule  # noqa: E402

from tests.support import forge_cluster as forge  # noqa: E402
from tests.support.realcluster import (RUN_TIMEOUT, finish, hexarena, journal, local_dask,  # noqa: E402
                                       processes_with, wait_until, write_config)

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


#: A client's attempt, in a process of its own: distributed's Client can hang in its own
#: start-up when a connection is refused at once (its loop thread stopping as it starts),
#: and a hung client in the test process would hang the suite.
_CLIENT = """
import sys
import distributed
security = distributed.Security.temporary() if sys.argv[2] == "temporary" else None
try:
    client = distributed.Client(sys.argv[1], timeout=5, security=security)
except Exception as exc:
    print(f"refused: {type(exc).__name__}: {exc}")
    sys.exit(0)
print("connected")
client.close()
"""


def refused(address: str, security: str = "none") -> str:
    """How a `distributed.Client` (with a temporary certificate when `security` is
    "temporary") fails to connect to `address`; AssertionError if it connects. A client that
    has not connected within a minute counts as refused."""
    try:
        done = subprocess.run([sys.executable, "-c", _CLIENT, address, security], capture_output=True,
                              text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "no connection within 60 s"
    assert not done.stdout.startswith("connected"), f"a client without the run's credentials connected to {address}"
    assert done.stdout.startswith("refused: "), done.stdout + done.stderr
    return done.stdout


def test_a_client_without_the_runs_credentials_cannot_use_a_local_cluster(tmp_path):
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    cfg_path = write_config(tmp_path, marker, games_per_pair=2, delay=0.3)
    run = hexarena("tournament", str(cfg_path), "--out", str(tmp_path / "out"), "--cluster", "local:2", cwd=tmp_path)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(run.stderr), daemon=True)   # type: ignore[arg-type]
    reader.start()
    found = wait_until(lambda: next((m for line in lines if (m := re.search(r"at (tls://[\d.:]+):", line))), None),
                       RUN_TIMEOUT, "the local cluster's address")
    address = found.group(1)
    refused(address)                                        # TLS, without a certificate
    refused(address.replace("tls://", "tcp://"))            # plain TCP
    refused(address, "temporary")      # a certificate, not the run's
    stdout = run.stdout.read()
    run.wait(timeout=RUN_TIMEOUT)
    reader.join(timeout=10)
    assert run.returncode == 0, "".join(lines)
    assert len(journal(tmp_path / "out")) == 2 and "2 games" in stdout
    assert not processes_with(marker)


def test_a_forged_record_is_refused_and_journaled_void_with_the_reason(tmp_path):
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    cfg_path = write_config(tmp_path, marker, games_per_pair=2)
    ids = [g.id for g in schedule(config_mod.load(cfg_path))]
    out = tmp_path / "out"
    cloudpickle.register_pickle_by_value(forge)     # the workers cannot import the tests
    try:
        with local_dask(tmp_path, 1) as dask:
            with distributed.Client(dask.address, timeout=30) as intruder:     # an open scheduler: anyone may
                assert list(intruder.run(forge.forge_winners).values()) == [None]
            code, _, stderr = finish(hexarena("tournament", str(cfg_path), "--out", str(out),
                                              "--cluster", dask.address, cwd=tmp_path))
    finally:
        cloudpickle.unregister_pickle_by_value(forge)
    assert code == 1 and "no game of this run counted" in stderr, stderr      # every record was refused
    records = journal(out)
    assert sorted(r["id"] for r in records) == sorted(ids)
    for r in records:
        assert r["result"] == "Void" and r["void_cause"] == "rejected" and r["winner"] is None, r
        assert "does not follow the rules" in r["reason"] and "where the moves give" in r["reason"], r["reason"]
    assert stderr.count("is refused") == len(ids)
    assert not list((out / "games").glob("*.sgf"))          # a refused record has no game file


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """docs/cluster.md's openssl commands: a CA, and one certificate it signs for every process."""
    commands = [
        "openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj /CN=hexarena-ca -keyout ca.key -out ca.pem",
        "openssl req -newkey rsa:2048 -nodes -subj /CN=hexarena-cluster -keyout cluster.key -out cluster.csr",
        "openssl x509 -req -in cluster.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 365 -out cluster.pem",
    ]
    for command in commands:
        subprocess.run(command.split(), cwd=folder, check=True, capture_output=True, timeout=60)
    return folder / "ca.pem", folder / "cluster.pem", folder / "cluster.key"


@pytest.mark.skipif(shutil.which("openssl") is None, reason="the recipe's certificates are made with openssl")
def test_the_tls_recipe_plays_on_a_scheduler_that_refuses_other_clients(tmp_path):
    marker = f"hexarena-cluster-test-{uuid.uuid4().hex}"
    cfg_path = write_config(tmp_path, marker, games_per_pair=2)
    ca, cert, key = make_certificates(tmp_path)
    out = tmp_path / "out"
    with local_dask(tmp_path, 1, tls=(ca, cert, key)) as dask:
        assert dask.address.startswith("tls://")
        refused(dask.address)
        refused(dask.address.replace("tls://", "tcp://"))
        refused(dask.address, "temporary")
        bare = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(cfg_path), "--out",
                               str(tmp_path / "bare"), "--cluster", dask.address], cwd=tmp_path, text=True,
                              capture_output=True, timeout=RUN_TIMEOUT)
        assert bare.returncode == 1 and "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT" in bare.stderr, bare.stderr
        env = dict(os.environ, DASK_DISTRIBUTED__COMM__TLS__CA_FILE=str(ca),
                   DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT=str(cert),
                   DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY=str(key),
                   DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION="true")
        run = subprocess.run([sys.executable, "-m", "hexarena", "tournament", str(cfg_path), "--out", str(out),
                              "--cluster", dask.address, "-q"], cwd=tmp_path, env=env, text=True,
                             capture_output=True, timeout=RUN_TIMEOUT)
    assert run.returncode == 0, run.stderr
    records = journal(out)
    assert len(records) == 2 and not [r for r in records if r["result"] == "Void"]
    assert all((out / r["sgf"]).is_file() for r in records)


def test_a_local_cluster_serves_no_page():
    """`local:N` serves none of Dask's HTTP pages (dashboard, info, metrics: plain HTTP without
    credentials); its scheduler's HTTP server, with no route, answers 404."""
    import urllib.error
    import urllib.request
    from hexarena.cluster import open_cluster
    with open_cluster("local:1") as cluster:
        services = cluster.client.scheduler_info().get("services", {})
        assert set(services) <= {"dashboard"}, services
        for port in services.values():
            for path in ("/status", "/info/main/workers.html", "/metrics", "/health", "/json/identity.json"):
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10)
                assert refused.value.code == 404, path
