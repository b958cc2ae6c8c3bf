// The league organiser's desk (api/league/desk.py): the current season run from the
// browser through the JSON API (the token and the writes: desk-core.js).
import { askForToken, connect, el } from "/events/desk-core.js";

const root = document.getElementById("desk");
const api = root.dataset.api;
const storeKinds = new Set(root.dataset.storeKinds.split(" "));
const content = document.getElementById("content");
const statusLine = document.getElementById("status");
const connection = connect({
  api,
  storageKey: `pairing-advisor:organiser:${api}`,
  message: document.getElementById("message"),
  reload: () => load(),
});
const { call, write } = connection;

let names = {};
const nameOf = (id) => names[id] || id;
let shown = null; // letters or a reissue's answer, kept across a redraw

// Sign-ups as typed, one a line: "id, name, e-mail" (name and e-mail optional).
function parseSignUps(text) {
  return text.split("\n").map((line) => line.split(",").map((cell) => cell.trim())).filter((cells) => cells[0])
    .map(([id, name, email]) => Object.fromEntries(Object.entries({ id, name, email }).filter(([, v]) => v)));
}

function signUpSection(number, season) {
  const box = el("textarea", { id: "signups", placeholder: "ann, Ann Lee, ann@example.org\nbob, Bob Birch" });
  const form = el("form", { id: "signup-form" },
    el("label", { for: "signups" }, "Sign players up, one a line: id, name, e-mail address"), box,
    el("button", { type: "submit" }, "Sign them up"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const answer = await write("POST", `/seasons/${number}/signups`, `sign-up ${box.value}`, { players: parseSignUps(box.value) });
    if (answer && answer.warnings.length) {
      shown = el("div", { class: "note", id: "warnings" }, answer.warnings.map((w) => el("p", {}, w)));
      load();
    }
  });
  return el("section", { id: "signup" },
    el("h2", {}, `Season ${number}: sign-ups (${season.signups.length})`),
    el("p", {}, season.signups.map((s) => nameOf(s.id)).join(", ") || "Nobody yet."),
    form,
    el("button", { type: "button", id: "form-season", onclick: async () => {
      const formed = await write("POST", `/seasons/${number}/form`, `form season ${number}`);
      if (formed) {
        shown = el("div", { id: "formed" },
          el("p", { class: "note" }, `Season ${number} is formed: ${formed.letters_sent} letters mailed, ${formed.letters_not_sent.length} to send yourself.`),
          formed.link_warning ? el("p", { class: "error" }, formed.link_warning) : null,
          formed.letters_not_sent.map((l) => el("pre", { class: "letter" }, l.letter)));
        load();
      }
    } }, `Form season ${number}`));
}

// Positions follow the scores: the service says them (POST /v1/league/positions: the
// positions the scores give, which a report's check accepts); a player who left comes
// after those who finished.
async function positions(rows) {
  let response, answer;
  try {
    response = await fetch(root.dataset.positions, {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ results: rows.map((r) => ({ score: r.score, dropped_out: r.left })) }) });
    answer = await response.json();
  } catch (error) {
    connection.say("no answer from the service (the Wi-Fi?): press again", "error");
    return null;
  }
  if (!response.ok) {
    connection.say(answer.detail, "error");
    return null;
  }
  return answer.positions.map((p) => p.position);
}

function gameForm(number, league, game) {
  const missing = !game.results;
  const given = Object.fromEntries((game.results || []).map((r) => [r.player, r]));
  const form = el("form", { class: `entry${missing ? " missing" : ""}`, "data-game": String(game.game) },
    el("h4", {}, `${game.name}${missing ? " · not reported" : " · reported"}`));
  for (const player of game.seats) {
    form.append(el("div", { class: "seat" },
      el("label", { for: `g${game.game}-${player}` }, nameOf(player)),
      el("input", { id: `g${game.game}-${player}`, name: player, type: "number", inputmode: "numeric", required: true, value: given[player] ? given[player].score : "" }),
      el("input", { type: "checkbox", name: `left-${player}`, id: `l${game.game}-${player}`, checked: Boolean(given[player] && given[player].dropped_out) }),
      el("label", { for: `l${game.game}-${player}` }, "left")));
  }
  form.append(el("button", { type: "submit" }, missing ? "Enter the result" : "Correct the result"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    connection.say(""); // cleared while the positions are asked: the outcome replaces it
    const rows = game.seats.map((player) => ({ player, score: Number(form.elements[player].value), left: form.elements[`left-${player}`].checked }));
    const places = await positions(rows);
    if (!places) return;
    const results = rows.map((r, i) => ({ player: r.player, score: r.score, position: places[i], dropped_out: r.left }));
    write("PUT", `/seasons/${number}/leagues/${encodeURIComponent(league)}/games/${game.game}`, `game ${league} ${game.game}`, { results });
  });
  return form;
}

async function runningSection(number, season) {
  const section = el("section", { id: "games" }, el("h2", {}, `Season ${number}: games`));
  for (const league of season.leagues) {
    const read = await call("GET", `/seasons/${number}/leagues/${encodeURIComponent(league.league)}`, { auth: false });
    const games = [...read.games].sort((a, b) => (a.results ? 1 : 0) - (b.results ? 1 : 0));
    section.append(el("h3", {}, `League ${league.league} · ${league.reported} of ${league.games} reported`),
      ...games.map((game) => gameForm(number, league.league, game)));
  }
  const letters = el("button", { type: "button", id: "letters", onclick: async () => {
    const answer = await call("GET", `/seasons/${number}/letters`);
    shown = el("div", { id: "letter-list" }, answer.letters.map((l) => el("pre", { class: "letter" }, l.text)));
    load();
  } }, "Letters, tokens filled in");
  const who = el("select", { id: "reissue-player" }, season.signups.map((s) => el("option", { value: s.id }, nameOf(s.id))));
  const reissue = el("button", { type: "button", id: "reissue", onclick: async () => {
    const answer = await write("POST", `/seasons/${number}/players/${encodeURIComponent(who.value)}/token`, `reissue ${who.value}`);
    if (answer) {
      shown = el("div", { id: "reissued" }, el("p", { class: "note" }, `${nameOf(answer.player)}'s new reporting token; the old one no longer works.`),
        el("pre", { class: "letter" }, answer.letter));
      load();
    }
  } }, "Reissue this player's reporting token");
  const close = el("button", { type: "button", id: "close-season", onclick: () => write("POST", `/seasons/${number}/close`, `close season ${number}`) }, `Close season ${number}`);
  section.append(el("h3", {}, "Letters and tokens"), letters, el("div", { class: "seat" }, who, reissue), el("h3", {}, "Close"), close);
  return section;
}

async function historySection() {
  const answer = await call("GET", "/history");
  const actions = answer.actions || [];
  const undone = new Set(actions.filter((a) => a.kind === "undone").map((a) => a.data.entry));
  const undoable = actions.filter((a) => a.seq > 1 && a.kind !== "undone" && !storeKinds.has(a.kind) && !undone.has(a.seq));
  const latest = undoable[undoable.length - 1];
  return el("section", { id: "history" }, el("h2", {}, "History"),
    latest ? el("button", { type: "button", id: "undo", onclick: () => write("POST", `/undo?entry=${latest.seq}`, `undo ${latest.seq}`) }, `Undo: ${latest.summary}`) : null,
    el("ol", { class: "history" }, actions.slice(-12).reverse().map((a) => el("li", { value: String(a.seq) }, a.summary))));
}

async function load() {
  if (askForToken(connection, content, load)) {
    statusLine.textContent = "";
    return;
  }
  try {
    const org = await call("GET", "");
    const number = org.current_season;
    const season = number ? await call("GET", `/seasons/${number}`) : null;
    names = Object.fromEntries((season ? season.signups : []).map((s) => [s.id, s.name || s.id]));
    statusLine.textContent = `${org.name || org.code} · ${season ? `season ${number}: ${season.status}` : "no season yet"}`;
    const parts = [shown]; // what the last action showed, this once
    shown = null;
    if (!season || season.status === "closed") {
      const next = (number || 0) + 1;
      if (season && season.winner) parts.push(el("p", { class: "note", id: "winners" }, `Season ${number} winner: ${nameOf(season.winner)}`));
      parts.push(el("button", { type: "button", id: "open-season", onclick: () => write("POST", "/seasons", `open season ${next}`) }, `Open season ${next}`));
    } else if (season.status === "signup") {
      parts.push(signUpSection(number, season));
    } else {
      parts.push(await runningSection(number, season));
    }
    parts.push(await historySection());
    content.replaceChildren(...parts.filter(Boolean));
  } catch (error) {
    content.replaceChildren(el("p", { class: "error" }, error.message));
  }
}

load();
