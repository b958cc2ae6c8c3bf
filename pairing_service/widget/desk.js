// The director's desk and a scorekeeper's phone page (api/held/desk.py): a held event run from
// the browser through the same JSON API as any client (the token and the writes:
// desk-core.js).

import { askForToken, connect, el } from "/events/desk-core.js";
import { tick } from "/events/round-clock.js";

const root = document.getElementById("desk");
const role = root.dataset.role;
const api = root.dataset.api;
const entryKind = root.dataset.entry;
const page = root.dataset.page;
const storeKinds = new Set(root.dataset.storeKinds.split(" "));
const storageKey = `pairing-advisor:${role}:${api}`;
const content = document.getElementById("content");
const statusLine = document.getElementById("status");
const message = document.getElementById("message");

const connection = connect({ api, storageKey, message, reload: () => load() });
const { call, write, say } = connection;

let names = {};
const nameOf = (id) => names[id] || id;

function entryForm(number, entry, isTable) {
  const id = isTable ? entry.table : entry.game;
  const label = isTable ? `Table ${id}` : `Game ${id}`;
  const missing = entry.result === null || entry.result === undefined;
  const box = el("form", { class: `entry${missing ? " missing" : ""}`, "data-entry": String(id), "data-round": String(number) });
  box.append(el("h3", {}, `${label}${missing ? " · waiting for its result" : " · entered"}`));
  const action = `${label} of round ${number}`;
  if (entryKind === "tables") {
    const scores = Object.fromEntries((entry.result || []).map((r) => [r.player, r.score]));
    for (const player of entry.players) {
      box.append(el("div", { class: "seat" },
        el("label", { for: `s-${number}-${id}-${player}` }, nameOf(player)),
        el("input", { id: `s-${number}-${id}-${player}`, name: player, type: "number", inputmode: "numeric", required: true, value: scores[player] ?? "" })));
    }
    box.append(el("p", { class: "muted" }, "Type each player's score: the places follow from the scores."));
    box.addEventListener("submit", (event) => {
      event.preventDefault();
      const results = entry.players.map((player) => ({ player, score: Number(box.elements[player].value) }));
      write("PUT", `/rounds/${number}/tables/${id}`, action, { results });
    });
  } else if (entryKind === "scores") {
    const given = (entry.result && entry.result.scores) || [];
    entry.players.forEach((player, seat) => {
      box.append(el("div", { class: "seat" },
        el("label", { for: `s-${number}-${id}-${seat}` }, nameOf(player)),
        el("input", { id: `s-${number}-${id}-${seat}`, name: `seat${seat}`, type: "number", inputmode: "numeric", required: true, value: given[seat] ?? "" })));
    });
    box.addEventListener("submit", (event) => {
      event.preventDefault();
      const scores = entry.players.map((_, seat) => Number(box.elements[`seat${seat}`].value));
      write("PUT", `/rounds/${number}/games/${id}`, action, { scores });
    });
  } else {
    const result = entry.result || {};
    const winner = el("select", { id: `w-${number}-${id}`, name: "winner", required: true },
      el("option", { value: "" }, "Who won?"),
      entry.players.map((player) => el("option", { value: player, selected: result.winner === player }, nameOf(player))));
    box.append(el("div", { class: "seat" }, el("label", { for: `w-${number}-${id}` }, "Winner"), winner));
    box.append(el("div", { class: "seat" }, el("label", { for: `p-${number}-${id}` }, "Pieces left"),
      el("input", { id: `p-${number}-${id}`, name: "pieces", type: "number", min: "0", inputmode: "numeric", value: result.pieces_left ?? 0 })));
    box.addEventListener("submit", (event) => {
      event.preventDefault();
      write("PUT", `/rounds/${number}/games/${id}`, action, { winner: winner.value, pieces_left: Number(box.elements.pieces.value) });
    });
  }
  box.append(el("button", { type: "submit" }, missing ? "Enter the result" : "Correct the result"));
  return box;
}

function roundSection(round, director) {
  const isTable = entryKind === "tables";
  const entries = isTable ? round.tables : round.games;
  const ordered = [...entries].sort((a, b) => (a.result ? 1 : 0) - (b.result ? 1 : 0));
  const waiting = entries.filter((e) => !e.result).length;
  const section = el("section", { id: "round" }, el("h2", {}, `Round ${round.round} · ${round.status}`));
  section.append(el("p", {}, waiting ? `${waiting} of ${entries.length} still to enter (listed first).` : "Every result is in."));
  if (round.bye) section.append(el("p", { class: "muted" }, `Bye: ${nameOf(round.bye)}`));
  for (const bye of round.byes || []) section.append(el("p", { class: "muted" }, `Bye: ${nameOf(bye)}`));
  if (round.status === "open") {
    for (const entry of ordered) section.append(entryForm(round.round, entry, isTable));
    if (director && waiting === entries.length) section.append(noShows(round, entries));
    if (director) {
      section.append(el("button", { type: "button", id: "close-round", disabled: waiting > 0, onclick: () => write("POST", `/rounds/${round.round}/close`, `close round ${round.round}`) }, `Close round ${round.round}`));
    }
  }
  return section;
}

// Before any result of the open round: who did not come is dropped and the round seated
// again without them, in one write (the API's re-seat; undo puts the first seating back).
function noShows(round, entries) {
  const seated = entries.flatMap((entry) => entry.players);
  const boxes = seated.map((player) => el("div", { class: "seat" },
    el("input", { type: "checkbox", id: `no-show-${player}`, "data-player": player }),
    el("label", { for: `no-show-${player}` }, nameOf(player))));
  const reseat = () => {
    const absent = boxes.map((box) => box.querySelector("input")).filter((box) => box.checked).map((box) => box.dataset.player);
    if (!absent.length) {
      say("Tick who has not come first.", "error");
      return;
    }
    write("POST", `/rounds/${round.round}/reseat`, `re-seat round ${round.round} without ${absent.join(",")}`, { no_shows: absent }).then((answer) => {
      if (answer) say(`Seated again without ${absent.map(nameOf).join(", ")} (dropped as no-shows).`);
    });
  };
  return el("details", { id: "no-shows" }, el("summary", {}, "No-shows: seat the round again without them"),
    boxes, el("button", { type: "button", id: "reseat", onclick: reseat }, "Seat again without them"));
}

function clockSection(event, director) {
  const clock = event.clock;
  const section = el("section", { id: "clock" });
  if (clock) section.append(el("p", { class: "clock", "data-ends": clock.ends_at, "data-round": String(clock.round) }, ""));
  if (!director || event.status !== "round_open") return clock ? section : null;
  const minutes = el("input", { id: "clock-minutes", type: "number", min: "1", max: "600", inputmode: "numeric", value: clock ? clock.minutes : "" , placeholder: "usual" });
  section.append(el("div", { class: "seat" },
    el("label", { for: "clock-minutes" }, "Minutes"), minutes,
    el("button", { type: "button", id: "start-clock", onclick: () => write("POST", "/clock", `clock of round ${event.current_round}`, minutes.value ? { minutes: Number(minutes.value) } : {}) }, clock ? "Restart the clock" : "Start the clock"),
    clock ? el("button", { type: "button", id: "stop-clock", onclick: () => write("DELETE", "/clock", `stop the clock of round ${event.current_round}`) }, "Stop") : null));
  return section;
}

function checkIn(players) {
  const list = el("div", {});
  for (const player of players) {
    list.append(el("div", { class: "seat" },
      el("input", { type: "checkbox", id: `here-${player.player}`, checked: true, "data-player": player.player }),
      el("label", { for: `here-${player.player}` }, nameOf(player.player))));
  }
  const dropAbsent = async () => {
    const absent = [...list.querySelectorAll("input[type=checkbox]")].filter((box) => !box.checked).map((box) => box.dataset.player);
    for (const player of absent) {
      const done = await write("POST", `/players/${encodeURIComponent(player)}/drop`, `drop ${player} at check-in`);
      if (done === null) return;
    }
    say(absent.length ? `Dropped as absent: ${absent.map(nameOf).join(", ")}.` : "Everyone is here.");
  };
  return el("section", { id: "check-in" },
    el("h2", {}, "Check-in"),
    el("p", {}, "Untick who has not come, then drop them in one action before the first round."),
    list,
    el("button", { type: "button", id: "drop-absent", onclick: dropAbsent }, "Drop the absent"));
}

function playersSection(event) {
  const dropped = event.standings.filter((s) => s.status === "dropped");
  const active = event.standings.filter((s) => s.status !== "dropped" && s.status !== "eliminated");
  const late = lateEntryForm();
  const dropChoice = el("select", { id: "drop-player" }, active.map((s) => el("option", { value: s.player }, nameOf(s.player))));
  return el("section", { id: "players" },
    el("h2", {}, "Players"),
    late,
    el("h3", {}, "Drop a player"),
    el("div", { class: "seat" }, dropChoice,
      el("button", { type: "button", onclick: () => write("POST", `/players/${encodeURIComponent(dropChoice.value)}/drop`, `drop ${dropChoice.value}`) }, "Drop")),
    dropped.length ? el("h3", {}, "Reinstate") : null,
    dropped.map((s) => el("div", { class: "seat" }, el("span", {}, nameOf(s.player)),
      el("button", { type: "button", onclick: () => write("POST", `/players/${encodeURIComponent(s.player)}/reinstate`, `reinstate ${s.player}`) }, `Reinstate ${nameOf(s.player)}`))));
}

async function scorekeepersSection(event) {
  const section = el("section", { id: "scorekeepers" }, el("h2", {}, "Scorekeepers"));
  const name = el("input", { id: "keeper-name", required: true, autocomplete: "off", placeholder: "e.g. Table 1–3" });
  const open = event.status === "round_open" ? event.current_round : null;
  const onlyThis = el("input", { type: "checkbox", id: "keeper-round" });
  const form = el("form", {}, el("div", { class: "seat" }, el("label", { for: "keeper-name" }, "Who"), name),
    open ? el("div", { class: "seat" }, onlyThis, el("label", { for: "keeper-round" }, `Round ${open} only (else every round)`)) : null,
    el("button", { type: "submit" }, "Issue a scorekeeper link"));
  const issued = el("div", { id: "issued" });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const round = open && onlyThis.checked ? open : undefined;
    const answer = await write("POST", "/scorekeepers", `scorekeeper ${name.value}`, { name: name.value, round });
    if (answer) {
      // The desk has been drawn again by now: show the link in the new one.
      const link = answer.link || `${location.origin}${page}/scorekeeper#token=${answer.token}`;
      document.getElementById("issued").replaceChildren(el("div", { class: "note" },
        el("p", {}, `Link for ${answer.name}: hand it over (it works until you revoke it).`),
        el("p", {}, el("a", { href: link, id: "keeper-link" }, link)),
        answer.qr ? el("p", { class: "qr" }, el("img", { src: answer.qr, alt: `QR code of ${answer.name}'s link` })) : null));
    }
  });
  section.append(form, issued);
  try {
    const listed = await call("GET", "/scorekeepers");
    for (const keeper of listed.scorekeepers || []) {
      section.append(el("div", { class: "seat" },
        el("span", {}, `${keeper.name}${keeper.round ? ` (round ${keeper.round})` : ""}`),
        el("button", { type: "button", onclick: () => write("DELETE", `/scorekeepers/${keeper.number}`, `revoke ${keeper.number}`) }, "Revoke")));
    }
  } catch (error) {
    section.append(el("p", { class: "error" }, error.message));
  }
  return section;
}

// The settings form is drawn by the server from the format's settings schema (desk.py);
// here it shows the values read and sends only those the director changed.
const settingsSection = document.getElementById("settings");
const settingsForm = document.getElementById("settings-form");
let settingsRead = {};

function settingValue(input) {
  if (input.dataset.kind === "flag") return input.checked;
  if (input.dataset.kind === "number") return input.value === "" ? null : Number(input.value);
  return input.value;
}

function showSettings(event) {
  if (!settingsSection) return;
  settingsSection.hidden = role !== "director" || event.status === "finished" || event.stage === "finished";
  settingsRead = event;
  for (const input of settingsForm.elements) {
    if (!input.name || !(input.name in event)) continue;
    if (input.dataset.kind === "flag") input.checked = Boolean(event[input.name]);
    else input.value = event[input.name] ?? "";
  }
}

if (settingsForm) {
  settingsForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const changed = {};
    for (const input of settingsForm.elements) {
      if (!input.name) continue;
      const value = settingValue(input);
      if (value !== (settingsRead[input.name] ?? null)) changed[input.name] = value;
    }
    if (!Object.keys(changed).length) {
      say("Nothing to change: the settings are as read.");
      return;
    }
    const words = Object.entries(changed).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(", ");
    write("PUT", "/settings", `settings ${JSON.stringify(changed)}`, changed).then((answer) => {
      if (answer) say(`Settings changed: ${words}.`);
    });
  });
}

// An earlier round's results, to correct (the API says what a correction changed, or why
// it is refused: a change of someone's elimination or of the ending needs an undo).
let correcting = null;

async function earlierSection(event) {
  const closed = event.status === "round_open" ? event.current_round - 1 : event.current_round || 0;
  if (closed < 1) return null;
  const choice = el("select", { id: "earlier-round" },
    el("option", { value: "" }, "Which round?"),
    Array.from({ length: closed }, (_, i) => el("option", { value: String(i + 1), selected: correcting === i + 1 }, `Round ${i + 1}`)));
  choice.addEventListener("change", () => {
    correcting = choice.value ? Number(choice.value) : null;
    load();
  });
  const section = el("section", { id: "earlier" }, el("h2", {}, "Correct an earlier round"),
    el("div", { class: "seat" }, el("label", { for: "earlier-round" }, "Round"), choice));
  if (correcting && correcting <= closed) {
    const round = await call("GET", `/rounds/${correcting}`, { auth: false });
    const entries = entryKind === "tables" ? round.tables : round.games;
    section.append(el("p", { class: "muted" }, "A correction here is told with what it changed; one that would change who is out or the winner is refused with the reason (undo back to it instead)."));
    for (const entry of entries) section.append(entryForm(round.round, entry, entryKind === "tables"));
  }
  return section;
}

async function historySection() {
  const answer = await call("GET", "/history");
  const actions = answer.actions || [];
  // The latest action still in effect: not an undo, not one undone, not the store's own
  // entries (a token replaced, a scorekeeper, a clock), which undo passes over.
  const latest = actions.filter((a) => a.kind !== "undone" && a.undone_by === null && !storeKinds.has(a.kind)).slice(-1)[0];
  return el("section", { id: "history" },
    el("h2", {}, "History"),
    latest && latest.seq > 1 ? el("button", { type: "button", id: "undo", onclick: () => write("POST", `/undo?entry=${latest.seq}`, `undo ${latest.seq}`) }, `Undo: ${latest.summary}`) : null,
    el("ol", { class: "history" }, actions.slice(-12).reverse().map((a) => el("li", { value: String(a.seq) }, a.summary))));
}

// --- Puffing Billy: boards (score sheets) numbered by the director, no rounds ---------

function boardForm(number, players, given) {
  const box = el("form", { class: "entry", id: `board-${number}`, "data-entry": String(number) },
    el("h3", {}, given.length ? `Board ${number} · entered` : `Board ${number}`));
  for (let seat = 0; seat < 6; seat += 1) {
    const sat = given[seat] || {};
    box.append(el("div", { class: "seat" },
      el("span", {}, `${seat + 1}.`),
      el("select", { name: `player${seat}`, "aria-label": `Place ${seat + 1}: who` },
        el("option", { value: "" }, seat < 2 ? "Who?" : "(empty seat)"),
        players.map((id) => el("option", { value: id, selected: sat.id === id }, nameOf(id)))),
      el("input", { name: `score${seat}`, type: "number", inputmode: "numeric", "aria-label": `Place ${seat + 1}: score`, value: sat.score ?? "" })));
  }
  // Puffing Billy's places are the sheet's finishing order, not its scores' (a player
  // placed below first may have scored more), so the rows are the places.
  box.append(el("p", { class: "muted" }, "In finishing order, 1st first, as on the score sheet, with each player's score."));
  box.addEventListener("submit", (event) => {
    event.preventDefault();
    const sheet = [];
    for (let seat = 0; seat < 6; seat += 1) {
      const who = box.elements[`player${seat}`];
      if (who.value) sheet.push({ id: who.value, score: Number(box.elements[`score${seat}`].value) });
    }
    write("PUT", `/boards/${number}`, `board ${number}`, { players: sheet });
  });
  box.append(el("button", { type: "submit" }, given.length ? "Correct the board" : "Enter the board"));
  return box;
}

async function loadBoards(event, director) {
  const players = [...new Set([...event.standings.map((s) => s.id), ...(event.without_boards || [])])];
  names = Object.fromEntries((event.ranking || []).map((placed) => [placed.id, placed.name || placed.id]));
  statusLine.textContent = `${event.name || "Event"} · ${event.stage} · ${event.boards_entered} boards entered`;
  const parts = [];
  if ((event.champions || []).length) parts.push(el("p", { class: "note", id: "winners" }, `Winner: ${event.champions.map(nameOf).join(", ")}`));
  const allowed = director ? null : await call("GET", "/scorekeepers/me");
  if (allowed && allowed.revoked) {
    parts.push(el("p", { class: "error", id: "not-allowed" }, "This scorekeeper link was revoked: ask the director for a new one."));
    return parts;
  }
  if (event.stage === "finished") return parts;
  const boards = (await call("GET", "/boards", { auth: false })).boards || [];
  // In the final the qualifiers come first; an alternate may take a qualifier's seat.
  const seated = event.stage === "final" ? [...new Set([...(event.qualifiers || []), ...players])] : players;
  const next = boards.reduce((most, b) => Math.max(most, b.board), 0) + 1;
  const section = el("section", { id: "round" }, el("h2", {}, `Boards · ${event.stage}`));
  section.append(boardForm(next, seated, []));
  const current = boards.filter((b) => b.stage === event.stage).reverse();
  if (current.length) section.append(el("h3", {}, "Entered (newest first): correct one here"));
  for (const board of current) section.append(boardForm(board.board, seated, board.players));
  parts.push(section);
  if (director && event.stage === "preliminary") {
    const finalists = el("input", { id: "finalists", type: "number", min: "1", inputmode: "numeric", value: "8" });
    parts.push(el("section", { id: "cut" }, el("h2", {}, "The cut"),
      el("div", { class: "seat" }, el("label", { for: "finalists" }, "Finalists"), finalists,
        el("button", { type: "button", id: "close-preliminaries", onclick: () => write("POST", "/preliminaries/close", "close the preliminaries", { finalists: Number(finalists.value) }) }, "Close the preliminaries"))));
    parts.push(el("section", { id: "players" }, el("h2", {}, "Players"), lateEntryForm()));
  }
  if (director && event.stage === "final") {
    parts.push(el("button", { type: "button", id: "close-final", onclick: () => write("POST", "/final/close", "close the final") }, "Close the final"));
  }
  return parts;
}

function lateEntryForm() {
  const id = el("input", { id: "late-id", name: "id", required: true, autocomplete: "off" });
  const name = el("input", { id: "late-name", name: "name", autocomplete: "off" });
  const late = el("form", { id: "late-entry" },
    el("h3", {}, "Late entry"),
    el("div", { class: "seat" }, el("label", { for: "late-id" }, "Id"), id),
    el("div", { class: "seat" }, el("label", { for: "late-name" }, "Name"), name),
    el("button", { type: "submit" }, "Enter the player"));
  late.addEventListener("submit", (e) => {
    e.preventDefault();
    write("POST", "/players", `late entry ${id.value}`, { id: id.value, name: name.value || undefined });
  });
  return late;
}

async function load() {
  if (askForToken(connection, content, load)) {
    statusLine.textContent = "";
    return;
  }
  try {
    // A scorekeeper's token is not the director's: their page reads what the public reads.
    const event = await call("GET", "", { auth: role === "director" });
    if (entryKind === "boards") {
      const parts = await loadBoards(event, role === "director");
      if (role === "director") parts.push(await scorekeepersSection(event), await historySection());
      content.replaceChildren(...parts.filter(Boolean));
      showSettings(event);
      return;
    }
    names = Object.fromEntries(event.standings.map((s) => [s.player, s.name || s.player]));
    const parts = [];
    statusLine.textContent = `${event.name || "Event"} · ${event.status.replace("_", " ")}${event.current_round ? ` · round ${event.current_round}` : ""}`;
    // Formats that name no winners (Scrabble) are won by the standings' first.
    const finished = event.status === "finished";
    const winners = (event.winners || []).length ? event.winners : finished && event.standings.length ? [event.standings[0].player] : [];
    if (winners.length) parts.push(el("p", { class: "note", id: "winners" }, `Winner: ${winners.map(nameOf).join(", ")}`));
    const director = role === "director";
    if (director && event.status === "registered") parts.push(checkIn(event.standings));
    if ("clock" in event) parts.push(clockSection(event, director));
    // A scorekeeper's link may enter one round only, or be revoked: asked of the API with
    // their own token, so the page offers only what the token may enter.
    const allowed = director ? null : await call("GET", "/scorekeepers/me");
    if (allowed && allowed.revoked) {
      parts.push(el("p", { class: "error", id: "not-allowed" }, "This scorekeeper link was revoked: ask the director for a new one."));
    } else if (allowed && allowed.round && event.current_round && allowed.round !== event.current_round) {
      parts.push(el("p", { class: "note", id: "not-allowed" }, `This link enters round ${allowed.round}'s results only; round ${event.current_round} is being played.`));
    } else if (event.current_round) {
      const round = await call("GET", `/rounds/${event.current_round}`, { auth: false });
      parts.push(roundSection(round, director));
    } else if (!director) {
      parts.push(el("p", {}, "No round is being played yet."));
    }
    if (director && (event.status === "registered" || event.status === "between_rounds")) {
      const next = (event.current_round || 0) + 1;
      parts.push(el("button", { type: "button", id: "start-round", onclick: () => write("POST", "/rounds", `start round ${next}`) }, `Start round ${next}`));
    }
    if (director) {
      parts.push(await earlierSection(event));
      if (!finished) parts.push(playersSection(event));
      parts.push(await scorekeepersSection(event));
      parts.push(await historySection());
    }
    content.replaceChildren(...parts.filter(Boolean));
    showSettings(event);
    tick(content);
  } catch (error) {
    content.replaceChildren(el("p", { class: "error" }, error.message));
  }
}

load();
