"""The host page follows the table live: a long press on D (a new join code and host link) takes its
controls away at once, saying why, before anyone taps one. Chromium against the real waitress server."""

from __future__ import annotations

import pytest
from webfixtures import live_server, phone_page, running_app

from companion.core.table import REISSUE_HOST

pytestmark = [pytest.mark.browser, pytest.mark.slow]



@pytest.mark.parametrize(("locale", "told"), [("en-US", "This host link is no longer valid"),
                                              ("fr-FR", "Ce lien d’hôte n’est plus valable")])
def test_a_long_press_on_d_takes_the_open_host_pages_controls_away_at_once(browser, tmp_path, locale, told):
    from playwright.sync_api import expect

    with running_app(tmp_path, keepalive=600) as (runtime, app), live_server(app) as srv:
        table = runtime.table
        old_code = table.roster.join_code()
        ctx, host = phone_page(browser, f"{srv.url}host?host={table.host_token()}", locale)
        try:
            expect(host.locator("#join-code")).to_have_text(old_code)
            expect(host.locator("#live")).to_have_attribute("data-state", "live")
            assert table.press(REISSUE_HOST).result(5).rejected is None
            assert table.roster.join_code() != old_code
            # Without a tap: the controls (and the old code) go, and the page says why.
            expect(host.locator("#host-controls")).to_be_hidden()
            expect(host.locator("#not-host")).to_be_visible()
            expect(host.locator("#not-host-why")).to_contain_text(told)
            assert host.evaluate("() => localStorage.getItem('companion.host')") is None
        finally:
            ctx.close()
