"""Port 80 on the hotspot, through the real daemon: a socket passed the way systemd passes it ($LISTEN_FDS),
the phones' connectivity probes answered, everything else sent to the table, no table data on it."""

from __future__ import annotations

import http.client
import shutil
import threading

import pytest
from daemon_process import DaemonProcess, free_port

from companion.outputs.webapp.activation import passed_sockets
from companion.outputs.webapp.probes import create_probe_app

ACTIVATE = shutil.which("systemd-socket-activate")
LEAK = "a file of the working directory, never served on port 80"


def get(port: int, host: str, path: str, method: str = "GET") -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request(method, path, headers={"Host": host})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def activated(tmp_path_factory):
    """`companion demo` started by systemd-socket-activate, which binds the probe port and passes it as fd 3
    named "http"; it starts the daemon at the first connection, as systemd does for a socket unit."""
    if ACTIVATE is None:
        pytest.skip("needs systemd-socket-activate (Debian's systemd package; .ci/run installs it)")
    probe_port = free_port()
    # Its working directory holds a static/ folder: Flask's default static route would serve it.
    workdir = tmp_path_factory.mktemp("cwd")
    (workdir / "static").mkdir()
    (workdir / "static" / "leak.txt").write_text(LEAK)
    daemon = DaemonProcess(tmp_path_factory.mktemp("state"), cwd=workdir,
                           prefix=(ACTIVATE, "--listen", f"127.0.0.1:{probe_port}", "--fdname=http"))
    first: dict = {}

    def first_connection():
        # This connection is what makes systemd-socket-activate start the daemon; it is answered once
        # the daemon serves the socket it was handed. Retried until the listener is up.
        from polling import eventually

        def attempt():
            try:
                first["answer"] = get(probe_port, "connectivitycheck.gstatic.com", "/generate_204")
                return True
            except ConnectionRefusedError:
                return False

        eventually(attempt, timeout=30, every=0.05)

    caller = threading.Thread(target=first_connection)
    caller.start()
    daemon.start()
    caller.join(30)
    try:
        yield daemon, probe_port, first
    finally:
        daemon.stop()


def test_the_first_connection_on_the_passed_socket_is_answered(activated):
    _, _, first = activated
    status, _, body = first["answer"]
    assert (status, body) == (204, b"")


@pytest.mark.parametrize("host, path, status, body", [
    ("connectivitycheck.gstatic.com", "/generate_204", 204, b""),
    ("www.google.com", "/gen_204", 204, b""),
    ("clients3.google.com:80", "/generate_204", 204, b""),
    ("captive.apple.com", "/hotspot-detect.html", 200,
     b"<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"),
    ("www.apple.com", "/library/test/success.html", 200,
     b"<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"),
    ("www.msftconnecttest.com", "/connecttest.txt", 200, b"Microsoft Connect Test"),
    ("www.msftncsi.com", "/ncsi.txt", 200, b"Microsoft NCSI"),
    ("detectportal.firefox.com", "/success.txt", 200, b"success\n"),
    # Chrome's own check (components/captive_portal: CaptivePortalDetector::kDefaultURL)
    ("www.gstatic.com", "/generate_204", 204, b""),
    # Firefox: its captive-portal check compares the whole body with the pref captivedetect.canonicalContent,
    # and its connectivity service asks success.txt with ?ipv4 / ?ipv6
    ("detectportal.firefox.com", "/canonical.html", 200,
     b'<meta http-equiv="refresh" content="0;url=https://support.mozilla.org/kb/captive-portal"/>'),
    ("detectportal.firefox.com", "/success.txt?ipv4", 200, b"success\n"),
    ("nmcheck.gnome.org", "/check_network_status.txt", 200, b"NetworkManager is online\n"),
])
def test_each_probe_gets_the_answer_that_keeps_its_phone_on_the_network(activated, host, path, status, body):
    _, port, _ = activated
    got_status, headers, got_body = get(port, host, path)
    assert (got_status, got_body) == (status, body)
    assert headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("host, path", [
    ("example.com", "/"),  # any name resolves to the table on its hotspot: a browser typing one lands here
    ("connectivitycheck.gstatic.com", "/api/state"),  # a probe's name, not a probe's path
    ("captive.apple.com", "/generate_204"),  # another OS's path under Apple's name
    ("10.42.0.1", "/api/state"),  # the table's own address: still no table data on port 80
    ("evil.example", "/generate_204"),  # a probe's path, not a probe's name
])
def test_anything_else_on_port_80_is_sent_to_the_table(activated, host, path):
    daemon, port, _ = activated
    status, headers, body = get(port, host, path)
    assert status == 302
    assert headers["Location"] == f"{daemon.base}/"  # the table's page, on its own port
    assert b"join_code" not in body and b"seats" not in body


@pytest.mark.parametrize("host", ["example.com", "connectivitycheck.gstatic.com", "10.42.0.1"])
def test_port_80_serves_no_file_of_its_working_directory(activated, host):
    daemon, port, _ = activated
    status, headers, body = get(port, host, "/static/leak.txt")
    assert (status, headers["Location"]) == (302, f"{daemon.base}/")
    assert LEAK.encode() not in body


def test_the_probe_app_has_no_static_route(tmp_path, monkeypatch):
    """Flask roots an app named after no module in the working directory: its default /static/ route
    would serve whatever lies in ./static there."""
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "leak.txt").write_text(LEAK)
    monkeypatch.chdir(tmp_path)
    app = create_probe_app(lambda: "http://10.42.0.1:8080/")
    answer = app.test_client().get("/static/leak.txt", headers={"Host": "example.com"})
    assert (answer.status_code, answer.headers["Location"]) == (302, "http://10.42.0.1:8080/")
    assert LEAK.encode() not in answer.data
    assert [rule.rule for rule in app.url_map.iter_rules() if "static" in rule.rule] == []


def test_a_probe_answer_goes_to_get_and_head_only(activated):
    _, port, _ = activated
    assert get(port, "connectivitycheck.gstatic.com", "/generate_204", "HEAD")[0] == 204
    assert get(port, "connectivitycheck.gstatic.com", "/generate_204", "POST")[0] == 302


def test_the_probe_names_are_not_admitted_on_the_tables_own_port(activated):
    daemon, _, _ = activated
    for host in ("connectivitycheck.gstatic.com", "captive.apple.com"):
        status, _, _ = get(daemon.port, host, "/api/state")
        assert status == 400  # the Host allow-list of the table's port is unchanged
    assert get(daemon.port, f"127.0.0.1:{daemon.port}", "/api/state")[0] == 200


def test_sockets_for_another_process_are_left_alone():
    assert passed_sockets({"LISTEN_FDS": "1", "LISTEN_PID": "1", "LISTEN_FDNAMES": "http"}) == {}
    assert passed_sockets({}) == {}
