/* A seat's private page: the game's seat fragment (or the generated one), live over the seat's own stream. */
"use strict";

(() => {
  const seat = JSON.parse(document.getElementById("seat").textContent);
  const root = document.getElementById("seat-game");
  const pageGame = root.dataset.game;
  // The game's own renderer, else the generated page's (when the game ships no seat fragment).
  const renderer = Companion.seats[pageGame] || (Companion.generated && Companion.generated.seat);
  let version = -1;
  let myTurn = null;  // unknown until the first payload: a page opened on its turn does not buzz
  const baseTitle = document.title;
  const seatHeading = document.getElementById("seat-name").textContent;  // "Seat n", as the server wrote it
  Companion.keepSeat(seat.token);

  // "Your turn": the rules wait on this seat (the payload's `waiting`, one contract for every game).
  // The line at the top, the tab's title, and a buzz when the turn comes (not on every update).
  function showTurn(payload) {
    const now = (payload.waiting || []).includes(seat.seat);
    document.getElementById("your-turn").hidden = !now;
    document.title = now ? `${Companion.t("your_turn")} · ${baseTitle}` : baseTitle;
    document.body.dataset.yourTurn = String(now);
    if (now && myTurn === false && navigator.vibrate) navigator.vibrate([200, 100, 200]);
    myTurn = now;
  }

  // The screen stays awake while a game runs (the Screen Wake Lock API, where the browser has it); the
  // browser drops the lock when the page is hidden, so it is asked again when the page comes back.
  let wakeLock = null;
  let gameRunning = false;
  async function keepAwake() {
    if (!gameRunning || wakeLock || document.visibilityState !== "visible" || !("wakeLock" in navigator)) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      document.body.dataset.awake = "true";
      wakeLock.addEventListener("release", () => { wakeLock = null; document.body.dataset.awake = "false"; });
    } catch (e) { /* refused (battery saver, no user gesture yet): the page works without it */ }
  }
  document.addEventListener("visibilitychange", keepAwake);

  // The end of the game, from the game's Result (payload.result): this seat's place or score, who won.
  const ends = JSON.parse(document.getElementById("end-strings").textContent);
  function myPlace(result, seatList) {
    const me = seat.seat;
    const names = (seats) => seats.map((s) => Companion.seatNamed(seatList, s)).join(", ");
    const lines = [];
    const others = result.winners.filter((s) => s !== me);
    if (result.winners.includes(me)) lines.push(others.length ? Companion.fill(ends.shared_win, { names: names(others) }) : ends.won);
    else if (result.winners.length) lines.push(Companion.fill(ends.won_by, { names: names(result.winners) }));
    else lines.push(ends.draw);
    if (result.ranks && me < result.ranks.length && !result.winners.includes(me)) {
      const rank = result.ranks[me];
      lines.push(rank === null ? ends.unplaced : Companion.fill(ends.place, { n: rank, count: result.ranks.length }));
    }
    if (result.scores && me < result.scores.length) lines.push(Companion.fill(ends.score, { score: result.scores[me] }));
    return lines.join(" ");
  }

  function showEnd(payload) {
    const end = document.getElementById("game-end");
    const between = !payload.over && Boolean(payload.match && payload.match.ended);  // a game of a match
    end.hidden = !payload.over && !between;
    document.getElementById("match-game").textContent = Companion.matchLine(payload);
    document.getElementById("next-game").hidden = between;
    document.getElementById("my-place").textContent = payload.over && payload.result ? myPlace(payload.result, payload.seats) : "";
  }

  function render(payload) {
    // Another game started: its fragment and script differ, so load the page afresh.
    if (payload.game !== pageGame) { window.location.reload(); return; }
    if (payload.version < version) return;
    version = payload.version;
    document.body.dataset.version = String(payload.version);
    showTurn(payload);
    gameRunning = Boolean(payload.title);
    keepAwake();
    const mine = (payload.seats || []).find((s) => s.seat === seat.seat);
    if (mine) {
      document.getElementById("seat-name").textContent = Companion.seatName(mine);
      document.documentElement.style.setProperty("--seat", mine.ink);
    }
    document.getElementById("not-playing").hidden = !mine || mine.playing;
    showEnd(payload);
    Companion.showEnded(payload);
    Companion.renderSeats(document.getElementById("seats-bar"), payload.seats, payload.public && payload.public.turn);
    if (renderer) renderer.render(root, payload);
  }

  if (renderer && renderer.init) renderer.init(root);
  render(JSON.parse(document.getElementById("snapshot").textContent));
  // The host took this link back (freed the seat, gave it a new link): the table says so on the stream
  // (`gone`), or refuses the stream and the seat's view since (a page asleep meanwhile asks). The page
  // drops the seat (its name, the seats bar, its controls), says how in the table's words, and leads to
  // the join page; it forgets the dead link and stops trying. Any other refusal of the stream is tried again.
  function seatGone(told) {
    Companion.forgetSeat();
    Companion.setLive("gone");
    document.body.dataset.seatGone = "true";
    document.body.dataset.goneWhy = told.gone || "unknown";
    document.getElementById("seat-name").textContent = seatHeading;
    document.documentElement.style.removeProperty("--seat");
    for (const id of ["your-turn", "seats-bar", "game-end", "not-playing", "seat-game"]) {
      document.getElementById(id).hidden = true;
    }
    document.title = baseTitle;
    document.getElementById("seat-gone-why").textContent = told.message || told.error || "";
    document.getElementById("seat-gone").hidden = false;
  }
  Companion.live(`/api/seat/${encodeURIComponent(seat.token)}/events`, render, async (told) => {
    if (told) { seatGone(told); return true; }
    const answer = await Companion.exchange("GET", `/api/seat/${encodeURIComponent(seat.token)}`);
    if (answer.status !== 404) return false;
    seatGone(answer.data || {});
    return true;
  });
})();
