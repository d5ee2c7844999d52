"""Config files: good ones load, bad ones are refused with the file, the key and the reason."""

import pytest

from companion.config import ConfigError, load


def write(tmp_path, text):
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_suit_the_impression_build():
    config = load(None)
    assert (config.panel, config.profile, config.language, config.port, config.game, config.options) == (
        "impression-7.3", "impression-7in3", "fr", 8080, "dice", {})


def test_a_full_file_loads(tmp_path):
    path = write(tmp_path, 'panel = "what-red"\nprofile = "what-buttons"\nlanguage = "en"\n'
                           f'state_dir = "{tmp_path}"\nport = 9000\ngame = "schacht"\n'
                           '[options.dice]\ncount = 3\n[options.schacht]\nplayers = 4\n')
    config = load(path)
    assert (config.panel, config.profile, config.language, config.port, config.game) == (
        "what-red", "what-buttons", "en", 9000, "schacht")
    assert config.options == {"dice": {"count": 3}, "schacht": {"players": 4}}
    assert config.table_setup().new_game({"game": "dice"})["options"] == {"count": 3}


def test_the_key_dice_of_older_configs_is_read_as_the_dice_games_count(tmp_path, caplog):
    config = load(write(tmp_path, "dice = 1\n"))
    assert config.options == {"dice": {"count": 1}}
    assert "[options.dice] count" in caplog.text
    assert load(write(tmp_path, "dice = 1\n[options.dice]\ncount = 3\n")).options == {"dice": {"count": 3}}


def test_a_users_data_file_is_checked_by_its_game_and_set_up_with(tmp_path):
    from companion.core import registry

    mine = tmp_path / "my-stages.toml"
    mine.write_text(registry.get("schacht").bundled("stages").text.replace("[6, 5, 5, 4, 4, 3]", "[9, 1]"))
    config = load(write(tmp_path, f'[data.schacht]\nstages = "{mine}"\n'))
    args = config.table_setup().new_game({"game": "schacht"})
    assert args["data"]["stages"] == {"name": "my-stages.toml", "text": mine.read_text()}
    mine.write_text("drivers = [")
    with pytest.raises(ConfigError) as caught:
        load(write(tmp_path, f'[data.schacht]\nstages = "{mine}"\n'))
    assert "'data.schacht.stages'" in str(caught.value) and "not valid TOML" in str(caught.value)


@pytest.mark.parametrize("text, key, reason", [
    ('colour = "red"\n', "colour", "unknown field"),
    ('port = "eighty"\n', "port", "Expected `int`, got `str`"),
    ("port = 70000\n", "port", "<= 65535"),
    ("dice = 4\n", "options.dice", "<= 3"),
    ("[options.dice]\ncount = 4\n", "options.dice", "<= 3"),
    ("[options.dice]\ncolour = 4\n", "options.dice", "unknown field"),
    ("[options.chess]\nwhite = 1\n", "options.chess", "unknown game"),
    ('[data.schacht]\ncards = "x.toml"\n', "data.schacht.cards", "no data file cards"),
    ('[data.schacht]\nstages = "/nowhere/x.toml"\n', "data.schacht.stages", "file not found"),
    ('language = "de"\n', "language", "not one of fr, en"),
    ('panel = "kindle"\n', "panel", "unknown panel"),
    ('game = "chess"\n', "game", "unknown game"),
    ('profile = "nope"\n', "profile", "nope"),
    ('panel = "spectra-13.3"\nprofile = "impression-7in3"\n', "profile", "16"),
    ('panel_speed = "turbo"\n', "panel_speed",
     "choose auto (fast while a game is played, normal otherwise) or one of normal, medium, fast"),
    ('panel_speed = "fast"\n', "panel_speed", "the impression-7.3 panel has no refresh speed to choose"),
    ("refreshes_per_hour = 1\n", "refreshes_per_hour", ">= 2"),
    ("refreshes_per_hour = 10\nrefresh_burst = 10\n", "refresh_burst",
     "must be less than refreshes_per_hour"),
    ('simulated_glass = "slow"\n', "simulated_glass", "choose one of instant, real, stuck"),
    ("connections_per_address = 4\n", "connections_per_address", "opens up to 6 connections at once"),
    ("connections_per_address = 500\n", "connections_per_address", "is not 6 to 100"),
    ('connections_per_address = "many"\n', "connections_per_address", "Expected `int`, got `str`"),
    ("live_pages_per_address = 0\n", "live_pages_per_address", "is not 1 to 15"),
    ("connections_per_address = 8\nlive_pages_per_address = 8\n", "live_pages_per_address",
     "give less than connections_per_address (8"),
])
def test_bad_values_name_file_key_and_reason(tmp_path, text, key, reason):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load(path)
    message = str(caught.value)
    assert str(path) in message
    assert f"'{key}'" in message
    assert reason in message


def test_the_limits_per_address_keep_the_servers_own_unless_set(tmp_path):
    from companion.outputs.webapp import create_app
    from companion.serving import connections

    config = load(None)
    assert config.connections_per_address == connections.PER_CLIENT
    assert config.live_pages_per_address == create_app.__kwdefaults__["per_client"]
    raised = load(write(tmp_path, "connections_per_address = 64\nlive_pages_per_address = 24\n"))
    assert (raised.connections_per_address, raised.live_pages_per_address) == (64, 24)


def test_broken_toml_names_the_file(tmp_path):
    path = write(tmp_path, "port = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(path)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="file not found"):
        load(tmp_path / "absent.toml")


def test_environment_port_wins_over_the_default(monkeypatch):
    monkeypatch.setenv("COMPANION_PORT", "9123")
    assert load(None).port == 9123


def test_bad_environment_port_is_refused(monkeypatch):
    monkeypatch.setenv("COMPANION_PORT", "http")
    with pytest.raises(ConfigError, match="COMPANION_PORT"):
        load(None)


def test_the_join_address_is_an_ip_address_unless_configured(monkeypatch):
    import ipaddress
    from urllib.parse import urlsplit

    from companion.network import address
    from companion.network.manager import Status

    assert address.table_url("http://table.example/", 8181) == "http://table.example/"
    hotspot = Status("hotspot", "wlan0", "Table", "10.42.0.1")
    assert address.table_url("", 8181, hotspot) == "http://10.42.0.1:8181/"
    monkeypatch.setattr(address, "routed_address", lambda: "192.168.1.20")
    assert address.table_url("", 8181) == "http://192.168.1.20:8181/"
    client = Status("client", "wlan0", "Cafe", "172.16.3.4")
    assert ipaddress.ip_address(urlsplit(address.table_url("", 8181, client)).hostname).is_private
    monkeypatch.setattr(address, "routed_address", lambda: "")  # no route at all: the mDNS name is all left
    assert address.table_url("", 8181).endswith(".local:8181/")


@pytest.mark.parametrize("text, key", [
    ('[network]\nmode = "mesh"\n', "network.mode"),
    ('[network]\nmode = "hotspot"\npassword = "short"\n', "network.password"),
    ('[network]\nmode = "auto"\n', "network.password"),
    ('[network]\nmode = "hotspot"\npassword = "long enough"\nssid = ""\n', "network.ssid"),
    ('[network]\nmode = "hotspot"\npassword = "long enough"\nchannel = 6\n', "network.channel"),
])
def test_a_bad_network_section_is_refused_by_key(tmp_path, text, key):
    with pytest.raises(ConfigError) as caught:
        load(write(tmp_path, text))
    assert f"'{key}'" in str(caught.value)


def test_a_hotspot_config_loads(tmp_path):
    config = load(write(tmp_path, '[network]\nmode = "auto"\nssid = "Jeux"\npassword = "a;b,c:d\\\\e"\n'))
    network = config.network
    assert (network.mode, network.ssid, network.password) == ("auto", "Jeux", "a;b,c:d\\e")


def test_environment_port_applies_when_no_port_flag_was_given(monkeypatch):
    monkeypatch.setenv("COMPANION_PORT", "9124")
    assert load(None, port=None).port == 9124
    assert load(None, port=9200).port == 9200


def test_a_spectra_panel_takes_a_fixed_speed(tmp_path):
    path = write(tmp_path, 'panel = "spectra-7.3"\nprofile = "impression-7in3"\npanel_speed = "medium"\n')
    assert load(path).panel_speed == "medium"
