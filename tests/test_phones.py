"""Phones join the real simulator in chromium: the join link, two seats, the host, a twin roll, a reload.

Set COMPANION_SCREENSHOTS=DIR to keep the phone-size screenshots (docs/screenshots is made this way).
"""

from __future__ import annotations

import io
import re

import pytest
import zxingcpp
from PIL import Image
from polling import wait_for
from simulator import running_simulator
from test_browser import PHONE
from webfixtures import shoot

from companion.outputs.webapp.trust import TABLE_BURST

pytestmark = pytest.mark.browser


@pytest.fixture
def simulator(tmp_path):
    with running_simulator(tmp_path / "state", first_frame=True, url="http://192.168.1.20:8080/",
                           language="fr") as companion:
        yield companion, f"http://127.0.0.1:{companion.server.port}/"


def new_phone(browser, locale: str = "fr-FR"):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                              locale=locale)
    return ctx, ctx.new_page()


def marked(name: str) -> re.Pattern:
    """A seat's name as every page shows it: after its mark (❶ to ❻)."""
    return re.compile(rf"^[\u2776-\u277b]\s{re.escape(name)}$")


def join(page, base: str, code: str, name: str) -> str:
    """Open the QR code's join link, type a name, take the first free seat; returns the seat page URL."""
    from playwright.sync_api import expect

    page.goto(f"{base}j/{code}")
    expect(page.locator("#code")).to_have_value(code)
    page.locator("#name").fill(name)
    expect(page.locator(".seat-choice[aria-pressed=true]")).to_have_count(1)
    page.locator("#take-seat").click()
    page.wait_for_url("**/seat/**")
    expect(page.locator("#seat-name")).to_have_text(marked(name))
    return page.url


def test_two_phones_join_the_host_starts_dice_and_a_twin_roll_reaches_both(simulator, browser, tmp_path):
    from playwright.sync_api import expect

    companion, base = simulator
    code = companion.table.roster.join_code()

    # Phone 1 opens the join link, becomes the host, then takes a seat.
    ctx1, alice = new_phone(browser)
    alice.goto(f"{base}j/{code}")
    alice.locator("#claim-host").click()
    alice.wait_for_url("**/host")
    expect(alice.locator("#join-code")).to_have_text(code)
    alice_seat = join(alice, base, code, "Alice")

    # Phone 2 joins as another seat: Alice's is taken.
    ctx2, bob = new_phone(browser, "en-GB")
    bob.goto(f"{base}j/{code}")
    expect(bob.locator('.seat-choice[data-seat="0"]')).to_be_disabled()
    expect(bob.locator("#become-host")).to_be_hidden()  # the table has its host
    bob_seat = join(bob, base, code, "Bob")
    assert bob_seat != alice_seat
    assert [s["name"] for s in companion.table.latest.seats[:2]] == ["Alice", "Bob"]
    shoot(bob, "seat", tmp_path)

    # The host starts free dice from the host page (two taps), and both seat pages follow.
    host_ctx, host = new_phone(browser)
    host.goto(f"{base}host?host={companion.table.host_token()}")
    expect(host.locator("#seat-admin li")).to_have_count(6)
    expect(host.locator('#seat-admin li[data-seat="1"] input')).to_have_value("Bob")
    host.locator("#game-choice").select_option("dice")
    host.locator("#start-game").click()
    host.locator("#start-game").click()
    wait_for(lambda: companion.table.latest.public.get("rolls") == 0 and companion.table.version >= 2)
    started = companion.table.version
    expect(alice.locator("body")).to_have_attribute("data-version", str(started))
    expect(bob.locator("body")).to_have_attribute("data-version", str(started))
    shoot(host, "host", tmp_path)

    # A roll from the device twin reaches both phones live.
    host.goto(f"{base}device")
    host.locator("button.hw.roll").click()
    wait_for(lambda: companion.table.latest.public.get("rolls") == 1)
    faces = [str(v) for v in companion.table.latest.public["last"]]
    for phone in (alice, bob):
        dice = phone.locator("#dice-faces .die")
        expect(dice).to_have_count(len(faces))
        assert dice.evaluate_all("els => els.map(e => e.dataset.value)") == faces

    # A seat rolls from its own page; a reload keeps the seat, and the scoreboard leads back to it.
    bob.locator("#roll").click()
    wait_for(lambda: companion.table.latest.public.get("rolls") == 2)
    bob.reload()
    expect(bob.locator("#seat-name")).to_have_text(marked("Bob"))
    bob.goto(base)
    expect(bob.locator("#dice-history li")).to_have_count(2)
    expect(bob.locator("#my-seat")).to_be_visible()
    bob.locator("#my-seat").click()
    bob.wait_for_url(bob_seat)
    ctx3, watcher = new_phone(browser)
    watcher.goto(base)
    expect(watcher.locator("#dice-history li")).to_have_count(2)
    # The public history, newest first: who did what, in the phone's language.
    expect(watcher.locator("#table-history li")).to_have_text(
        ["\u2777 Bob a lancé les dés", "Le boîtier a lancé les dés", "Nouvelle partie"])
    shoot(watcher, "scoreboard", tmp_path)
    join_ctx, newcomer = new_phone(browser)
    newcomer.goto(f"{base}j/{code}")
    expect(newcomer.locator('.seat-choice[data-seat="2"]')).to_have_attribute("aria-pressed", "true")
    shoot(newcomer, "join", tmp_path)
    for ctx in (ctx1, ctx2, ctx3, host_ctx, join_ctx):
        ctx.close()


def test_a_freed_seat_loses_its_link_and_a_new_link_takes_over(simulator, browser):
    from playwright.sync_api import expect

    companion, base = simulator
    code = companion.table.roster.join_code()
    ctx, phone = new_phone(browser)
    old = join(phone, base, code, "Chloé")
    host_ctx, host = new_phone(browser)
    host.goto(f"{base}host?host={companion.table.host_token()}")
    renew = host.locator('#seat-admin li[data-seat="0"] button[data-action="new-link"]')
    renew.click()  # the first tap asks again: the seat's link would stop
    renew.click()
    expect(host.locator("#seat-link")).to_be_visible()
    expect(host.locator("#seat-link-qr svg")).to_have_count(1)
    shown = host.locator("#seat-link-url").inner_text()
    # At the address phones reach (the one the join QR code has), not this test browser's loopback.
    assert shown.startswith(companion.url + "seat/")
    new = base + shown.removeprefix(companion.url)
    assert new != old
    phone.goto(old)
    expect(phone.locator("#error-message")).to_be_visible()
    phone.goto(new)
    expect(phone.locator("#seat-name")).to_have_text(marked("Chloé"))
    free = host.locator('#seat-admin li[data-seat="0"] button[data-action="free"]')
    free.click()
    free.click()
    wait_for(lambda: companion.table.latest.seats[0]["name"] == "")
    phone.reload()
    expect(phone.locator("#error-message")).to_be_visible()
    ctx.close()
    host_ctx.close()


def test_a_wrong_join_code_is_refused_with_the_reason(simulator, browser):
    from playwright.sync_api import expect

    companion, base = simulator
    ctx, phone = new_phone(browser, "en-US")
    phone.goto(f"{base}j/ZZZZ")
    phone.locator("#name").fill("Eve")
    phone.locator("#take-seat").click()
    expect(phone.locator("#message")).to_contain_text("join code is not the table's")
    assert all(not s["name"] for s in companion.table.latest.seats)
    ctx.close()


def test_a_scanned_link_joins_while_strangers_have_spent_the_typed_codes(simulator, browser):
    """Strangers spent the table's wrong codes, and this phone typed one too: typing the right code waits,
    the glass's QR code (its link holds the key) joins at once, and so does the host's claim."""
    from playwright.sync_api import expect

    companion, base = simulator
    attempts = companion.server.app.extensions["companion.codes"]
    for n in range(TABLE_BURST):
        attempts.admit(f"10.0.0.{n + 2}")
        attempts.failed(f"10.0.0.{n + 2}")
    attempts.failed("127.0.0.1")  # this phone's typo: it gets no spare check
    roster = companion.table.roster
    ctx, phone = new_phone(browser, "en-US")
    phone.goto(f"{base}join")
    phone.locator("#code").fill(roster.join_code())
    phone.locator("#name").fill("Ann")
    phone.locator("#take-seat").click()
    expect(phone.locator("#message")).to_contain_text("scan the QR code")
    phone.goto(f"{base}j/{roster.join_code()}.{roster.join_key()}")
    phone.locator("#claim-host").click()
    phone.wait_for_url("**/host")
    # The host page shows the glass's QR code too: it reads back to the link with the key.
    expect(phone.locator("#join-qr svg")).to_have_count(1)
    shot = Image.open(io.BytesIO(phone.locator("#join-qr").screenshot()))
    scanned = [found.text for found in zxingcpp.read_barcodes(shot)]
    assert scanned == [f"http://192.168.1.20:8080/j/{roster.join_code()}.{roster.join_key()}"]
    phone.goto(f"{base}j/{roster.join_code()}.{roster.join_key()}")
    phone.locator("#name").fill("Ann")
    phone.locator("#take-seat").click()
    phone.wait_for_url("**/seat/**")
    expect(phone.locator("#seat-name")).to_have_text(marked("Ann"))
    ctx.close()
