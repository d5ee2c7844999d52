"""Schemathesis fuzzes every non-streaming operation of /api/openapi.json on a live server, per requester."""

from __future__ import annotations

from collections import Counter

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance
from webfixtures import FakeBoard, FakeDisplay, live_server, running_app

from companion.core.seats import MAX_SEATS

# The two live streams never end, so a fuzzed request would only wait for its timeout (test_sse covers them).
STREAMS = {"/api/events", "/api/seat/{token}/events"}
EXAMPLES = 40  # per operation, generation mode and requester
MIN_CASES = 700  # per requester: three requesters make more than the 2,000 cases asked for
REQUESTERS = ["nobody", "host", "seat"]
CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]
TOKEN_HEADERS = {"x-host-token", "x-seat-token"}
NEGATABLE = {"parameters", "requestBody", "security"}  # without any, an operation has no invalid request
# The device's routes are the host's, but open on the simulator's own machine, where this fuzz runs.
OPEN_HERE = "x-open-on-the-simulators-machine"

pytestmark = pytest.mark.slow  # thousands of requests to a live server


@pytest.fixture
def live(tmp_path):
    # A board and a frame so that press and frame.png reach their success paths too.
    with running_app(tmp_path, board=FakeBoard(), display=FakeDisplay(b"\x89PNG-frame")) as (runtime, app), \
            live_server(app) as server:
        base = f"http://127.0.0.1:{server.port}"
        schema = schemathesis.openapi.from_url(f"{base}/api/openapi.json")
        with requests.Session() as session:
            yield runtime, schema, base, session


def table_state(runtime) -> dict:
    """Everything a refused request must leave alone."""
    table = runtime.table
    roster = table.roster
    return {"version": table.latest.version, "seats": table.latest.seats, "host": table.host_token(),
            "join_code": roster.join_code(), "host_claimed": roster.host_claimed(),
            "language": roster.language("?"), "tokens": [table.seat_token(s) for s in range(MAX_SEATS)],
            "presses": list(runtime.board.presses)}


def command_kinds(doc: dict) -> list[str]:
    """Every command kind the document lists, the table's and each game's."""
    listing = doc["paths"]["/api/command"]["post"]["x-commands"]
    return sorted({kind for kinds in listing.values() for kind in kinds})


def game_names(doc: dict) -> list[str]:
    table = doc["paths"]["/api/command"]["post"]["x-commands"]["table (host token)"]
    return table["new_game"]["properties"]["game"]["enum"]


def as_requester(case, who: str, mode: GenerationMode, runtime, data, doc: dict) -> None:
    """Give the case the requester's real token, and half the time real values random data never hits."""
    headers = {k: v for k, v in (case.headers or {}).items() if k.lower() not in TOKEN_HEADERS}
    if who == "host":
        headers["X-Host-Token"] = runtime.table.host_token()
    elif who == "seat":
        token = runtime.table.seat_token(0)
        headers["X-Seat-Token"] = token
        if case.path_parameters and "token" in case.path_parameters and data.draw(st.booleans()):
            case.path_parameters = {**case.path_parameters, "token": token}
    else:
        headers = dict(case.headers or {})  # whatever schemathesis made up, never a real token
    case.headers = headers
    if who == "nobody" or mode is not GenerationMode.POSITIVE or not data.draw(st.booleans()):
        return
    # A random seat number, join code, command kind, name or button is refused every time: these reach
    # the accepting paths.
    if case.path_parameters and "seat" in case.path_parameters:
        case.path_parameters = {**case.path_parameters, "seat": data.draw(st.integers(0, MAX_SEATS - 1))}
    if not isinstance(case.body, dict):
        return
    body = dict(case.body)
    if "seat" in body:
        body["seat"] = data.draw(st.integers(0, MAX_SEATS - 1))
    if "code" in body:
        body["code"] = runtime.table.roster.join_code()
    if "name" in body:
        body["name"] = data.draw(st.sampled_from(["Ada", "  Grace  Hopper ", "Zoë"]))
    if "button" in body:
        body["button"] = data.draw(st.sampled_from(runtime.board.snapshot()["buttons"]))
    if "language" in body:
        body["language"] = data.draw(st.sampled_from(["fr", "en"]))
    if "kind" in body:
        body["kind"] = data.draw(st.sampled_from(command_kinds(doc)))
        if body["kind"] == "new_game":
            body["args"] = {"game": data.draw(st.sampled_from(game_names(doc)))}
        elif data.draw(st.booleans()):
            body["args"] = {}
    case.body = body


def fuzzed_operations(schema) -> list:
    """Every operation in the document but the streams (get_all_operations leaves the document itself out)."""
    return [schema[path][method.upper()] for path, item in schema.raw_schema["paths"].items()
            if path not in STREAMS for method in item]


def check_answer(case, response, before: dict, after: dict) -> None:
    __tracebackhide__ = True
    where = f"{response.status_code} {response.headers} {response.content[:300]!r}\n{case.as_curl_command()}"
    case.validate_response(response, checks=CHECKS)
    assert response.status_code < 500, where
    if not 200 <= response.status_code < 300:
        assert response.headers.get("content-type", [""])[0].startswith("application/json"), where
        body = response.json()
        assert body["ok"] is False, where
        assert isinstance(body["error"], str) and body["error"].strip(), where
    if 400 <= response.status_code < 500 or case.method == "GET":
        assert after == before, f"{response.status_code} changed the table: {where}"


def fuzz(operation, mode: GenerationMode, who: str, live, seen: Counter) -> None:
    """Run EXAMPLES cases of one operation in one mode as `who`, counting the answers' statuses in `seen`."""
    runtime, schema, base, session = live

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
    def run(case, data):
        as_requester(case, who, mode, runtime, data, schema.raw_schema)
        before = table_state(runtime)
        response = case.call(base_url=base, session=session, timeout=15)
        seen[response.status_code] += 1
        check_answer(case, response, before, table_state(runtime))

    try:
        run()
    except Unsatisfiable:
        # Negative mode finds nothing to negate in a plain string path parameter (a seat token).
        assert mode is GenerationMode.NEGATIVE, operation.label


def host_commands(live, seen: Counter) -> None:
    """The host's own commands, written out: random data reaches them too seldom to count on."""
    runtime, schema, base, session = live
    operation = schema["/api/command"]["POST"]
    bodies = [{"kind": "new_game", "args": {"game": "dice"}}, {"kind": "roll", "args": {}},
              {"kind": "undo", "args": {}}]
    for game in game_names(schema.raw_schema):  # end_game goes back to free dice, so not from there
        bodies.append({"kind": "new_game", "args": {"game": game}})
        if game != "dice":
            bodies.append({"kind": "end_game", "args": {}})
    for body in bodies:
        case = operation.Case(body=body, media_type="application/json",
                              headers={"X-Host-Token": runtime.table.host_token()})
        before = table_state(runtime)
        response = case.call(base_url=base, session=session, timeout=15)
        seen[response.status_code] += 1
        check_answer(case, response, before, table_state(runtime))
        assert response.status_code == 200, (body, response.text)


@pytest.mark.parametrize("who", REQUESTERS)
def test_fuzzed_requests_never_fail_and_refusals_change_nothing(live, who):
    runtime, schema, _, _ = live
    if who == "host":
        # The host has opened its link already (its first use claims the host, a change of its own).
        token = runtime.table.host_token()
        runtime.table.seating(lambda roster, count: roster.host_used(token))
    doc = schema.raw_schema
    secured = {f"{method.upper()} {path}" for path, item in doc["paths"].items()
               for method, operation in item.items()
               if operation.get("security") and not operation.get(OPEN_HERE)}
    statuses: dict[str, Counter] = {}
    for operation in fuzzed_operations(schema):
        seen = statuses.setdefault(operation.label, Counter())
        fuzz(operation, GenerationMode.POSITIVE, who, live, seen)
        if NEGATABLE & set(doc["paths"][operation.path][operation.method.lower()]):
            fuzz(operation, GenerationMode.NEGATIVE, who, live, seen)
    if who == "host":
        host_commands(live, statuses["POST /api/command"])
    cases = sum(sum(seen.values()) for seen in statuses.values())
    print(f"{who}: {cases} cases", {label: dict(seen) for label, seen in statuses.items()})
    assert cases >= MIN_CASES, f"only {cases} cases ran for {who}"
    assert {path for path in doc["paths"] if path not in STREAMS} == \
        {label.split(" ", 1)[1] for label, seen in statuses.items() if seen}
    ok = {label for label, seen in statuses.items() if any(200 <= s < 300 for s in seen)}
    if who == "host":
        # The token works: the host reads what only the host may and gets commands recorded.
        assert {"GET /api/export", "GET /api/host", "POST /api/command"} <= ok
    else:
        assert not ok & secured, f"{who} got a 2xx from host-only operations {ok & secured}"
    if who == "seat":
        assert "GET /api/seat/{token}" in ok
