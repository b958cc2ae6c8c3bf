// Pairing Advisor widgets, v1: <pairing-advisor>, and the standings of held events:
// <strikes-standings>, <diagonal-standings>, <puffing-billy-standings>, <scrabble-standings>
// and <league-standings>;
// and <league-report>, a player's form to report a league game.
// A dependency-free ES module. Each element renders into an open shadow root; a host page
// can restyle it with CSS custom properties: --pa-font, --pa-accent, --pa-bg, --pa-fg,
// --pa-muted, --pa-border, --pa-radius.

const STYLE = `
:host { display: block; font-family: var(--pa-font, system-ui, sans-serif); color: var(--pa-fg, #1d2430);
  background: var(--pa-bg, #fff); border: 1px solid var(--pa-border, #d6dae1); border-radius: var(--pa-radius, 8px);
  padding: 12px; max-width: 100%; box-sizing: border-box; line-height: 1.4; }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
h2 { font-size: 1.1rem; margin: 0 0 8px; }
h3 { font-size: 1rem; margin: 14px 0 6px; }
h4 { font-size: .95rem; margin: 10px 0 4px; }
label { display: block; font-size: .9rem; margin: 6px 0 2px; }
textarea, input, select { font: inherit; width: 100%; padding: 6px; border: 1px solid var(--pa-border, #d6dae1); border-radius: 4px; }
textarea { min-height: 8em; font-family: ui-monospace, monospace; font-size: .85rem; }
.row { display: flex; gap: 8px; flex-wrap: wrap; }
.row > * { flex: 1 1 120px; }
button { font: inherit; background: var(--pa-accent, #2456c7); color: #fff; border: 0; border-radius: 4px;
  padding: 8px 14px; margin-top: 10px; cursor: pointer; }
button.secondary { background: transparent; color: var(--pa-accent, #2456c7); border: 1px solid var(--pa-accent, #2456c7); }
button:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible {
  outline: 3px solid var(--pa-accent, #2456c7); outline-offset: 2px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--pa-border, #d6dae1); vertical-align: top; }
th { font-weight: 600; }
@media (max-width: 400px) { table { font-size: .85rem; } th, td { padding: 4px 3px; } }
.muted { color: var(--pa-muted, #5b6472); font-size: .85rem; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: .8rem; font-weight: 600; }
.satisfied, .active, .winner.badge, .qualified { background: #e3f4e8; color: #17602f; }
.violated, .eliminated { background: #fde4e4; color: #8c1d1d; }
.overridden, .unavoidable, .unverified, .dropped, .playoff { background: #fff1d6; color: #7a4b00; }
.not_applicable, .bye { background: #eceef2; color: #4a5260; }
.error { background: #fde4e4; color: #8c1d1d; border-radius: 4px; padding: 8px; margin-top: 10px; }
.winner { font-weight: 700; color: var(--pa-accent, #2456c7); }
.prize { background: #e8eefb; color: var(--pa-accent, #2456c7); white-space: nowrap; }
ul { padding-left: 1.2em; margin: 4px 0; }
`;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

async function problemOrJson(response) {
  const type = response.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await response.json() : { title: response.statusText, detail: await response.text() };
  if (!response.ok) {
    const error = new Error(body.detail || response.statusText);
    error.title = body.title || `Error ${response.status}`;
    throw error;
  }
  return body;
}

function errorBox(error) {
  const title = error.title || "The service could not be reached";
  return el("div", { class: "error", role: "alert" }, el("strong", {}, title), el("div", {}, error.message || ""));
}

function apiBase(element) {
  return (element.getAttribute("api") || "").replace(/\/+$/, "");
}

const SAMPLE = "id,wins,spread,name\nA,8,412,Ann\nB,8,120,Bob\nC,7,300,Cat\nD,7,-40,Dan\nE,5,10,Eve\nF,4,-80,Fay\n";

class PairingAdvisor extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: "open" });
  }

  connectedCallback() {
    if (this.shadowRoot.childElementCount) return;
    const format = el("select", { id: "format" },
      el("option", { value: "csv" }, "CSV: id, wins, spread, name"),
      el("option", { value: "tsh" }, "tsh division file (.t)"));
    this.text = el("textarea", { id: "standings", "aria-describedby": "hint" });
    this.text.value = this.getAttribute("standings") || SAMPLE;
    this.format = format;
    this.victors = el("input", { id: "victors", type: "number", min: "1", max: "8", value: "2" });
    this.cap = el("input", { id: "cap", type: "number", min: "1", max: "10000", placeholder: "unbounded" });
    this.prefer = el("select", { id: "prefer" },
      el("option", { value: "table" }, "the seed's table"),
      el("option", { value: "principles" }, "the principles (GP1-GP4)"));
    this.rows = el("tbody");
    this.rowEditor = el("div", { class: "scroll", hidden: "" },
      el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Id"), el("th", {}, "Wins"), el("th", {}, "Spread"), el("th", {}, "Name"))), this.rows),
      el("button", { type: "button", class: "secondary", onclick: () => this.addRow() }, "Add a player"));
    this.output = el("div", { "aria-live": "polite" });
    const form = el("form", { onsubmit: (event) => { event.preventDefault(); this.pair(); } },
      el("h2", {}, this.getAttribute("heading") || "Final-round pairings"),
      el("label", { for: "format" }, "Standings as"), format,
      el("label", { for: "standings" }, "Standings"), this.text,
      el("p", { id: "hint", class: "muted" }, "Paste one player per line, or edit rows."),
      el("button", { type: "button", class: "secondary", onclick: () => this.toggleRows() }, "Edit as rows"),
      this.rowEditor,
      el("div", { class: "row" },
        el("div", {}, el("label", { for: "victors" }, "Victors"), this.victors),
        el("div", {}, el("label", { for: "cap" }, "Max spread per game"), this.cap),
        el("div", {}, el("label", { for: "prefer" }, "Recommend by"), this.prefer)),
      el("button", { type: "submit" }, "Pair the final round"));
    this.shadowRoot.append(el("style", {}, STYLE), form, this.output);
  }

  addRow(values = ["", "", "", ""]) {
    const cells = values.map((value, i) => el("td", {}, el("input", {
      value, "aria-label": ["Id", "Wins", "Spread", "Name"][i], size: "6" })));
    this.rows.append(el("tr", {}, cells));
  }

  toggleRows() {
    const showing = !this.rowEditor.hidden;
    if (showing) {
      this.text.value = "id,wins,spread,name\n" + [...this.rows.rows]
        .map((row) => [...row.querySelectorAll("input")].map((input) => input.value.trim()).join(","))
        .filter((line) => line.replace(/,/g, "")).join("\n") + "\n";
      this.rowEditor.hidden = true;
      this.text.hidden = false;
      return;
    }
    this.rows.replaceChildren();
    this.format.value = "csv";
    for (const line of this.text.value.split(/\r?\n/)) {
      const cells = line.split(",").map((cell) => cell.trim());
      if (!cells[0] || cells[0].toLowerCase() === "id") continue;
      this.addRow([cells[0], cells[1] || "", cells[2] || "", cells[3] || ""]);
    }
    this.rowEditor.hidden = false;
    this.text.hidden = true;
  }

  async pair() {
    if (!this.rowEditor.hidden) this.toggleRows();
    const query = new URLSearchParams({ victors: this.victors.value || "2", prefer: this.prefer.value });
    if (this.cap.value) query.set("max_spread_per_game", this.cap.value);
    const csv = this.format.value === "csv";
    this.output.replaceChildren(el("p", { class: "muted" }, "Asking the advisor…"));
    try {
      const response = await fetch(`${apiBase(this)}/v1/scrabble/final-round?${query}`, {
        method: "POST",
        credentials: "omit",
        headers: { "Content-Type": csv ? "text/csv" : "text/plain", Accept: "application/json" },
        body: this.text.value,
      });
      this.show(await problemOrJson(response));
    } catch (error) {
      this.output.replaceChildren(errorBox(error));
    }
  }

  show(answer) {
    const gibsonized = new Set(answer.gibsonized);
    const name = (game, i) => {
      const id = game.players[i];
      const shown = game.names[i] ? `${game.names[i]} (${id})` : id;
      return `#${game.ranks[i]} ${shown}${gibsonized.has(id) ? " (Gibsonized)" : ""}`;
    };
    const boards = (games, className) => el("table", { class: className },
      el("thead", {}, el("tr", {}, el("th", {}, "Board"), el("th", {}, "Player"), el("th", {}, "Opponent"), el("th", {}, "Why"))),
      el("tbody", {}, games.map((game, i) => el("tr", {},
        el("td", {}, String(i + 1)),
        el("td", {}, name(game, 0)),
        el("td", {}, game.bye ? "BYE" : name(game, 1)),
        el("td", { class: "muted" }, game.reason)))));
    const pairings = boards(answer.pairings, "pairings");
    const alternatives = answer.alternatives.flatMap((alt) => [
      el("h3", {}, alt.source === "table" ? "The seed's table would pair" : "An alternative that ranks above on the principles"),
      el("p", { class: "tradeoff" }, alt.tradeoff),
      el("div", { class: "scroll" }, boards(alt.pairings, "alternative")),
      el("ul", { class: "muted" }, alt.principles.map((p) => el("li", {}, `${p.id} ${p.status.replace("_", " ")}`)))]);
    const principles = el("ul", { class: "principles" }, answer.principles.map((p) => el("li", {},
      el("strong", {}, p.id), " ", el("span", { class: `badge ${p.status}` }, p.status.replace("_", " ")), " ",
      p.reason, p.seed && p.seed.status !== p.status ? el("div", { class: "muted" }, `The seed says ${p.seed.status}.`) : null)));
    const needs = el("ul", { class: "needs" }, answer.needs.map((n) => el("li", {}, `#${n.rank} ${n.player}: ${n.text}`)));
    this.output.replaceChildren(
      // What to post, and the pairing the engine ranks beside it, first.
      el("p", { class: "headline" }, el("strong", {}, answer.headline)),
      el("h3", {}, `Configuration ${answer.configuration}`),
      el("p", {}, `Rule ${answer.rule.id} (${answer.rule.source}): ${answer.rule.text}`),
      el("div", { class: "scroll" }, pairings),
      el("h3", {}, "Principles"), principles,
      el("h3", {}, "What each contender needs"), needs,
      ...alternatives,
      ...answer.warnings.map((w) => el("p", { class: "muted" }, `Note: ${w}`)));
  }
}

const REPORTED = "pairing-advisor-reported";
const POSITIONS_DEBOUNCE_MS = 150; // a report form asks for positions once typing pauses

// Auto-refresh: refresh="60" reads the event again every 60 seconds (at least every
// MIN_REFRESH), while the page is shown; without it, on demand (the button).
const MIN_REFRESH = 15;

// A held tournament's standings, read without a token and refreshed on demand or every
// `refresh` seconds. Subclasses name their collection and draw the event; this base
// fetches and reports problems.
class HeldStandings extends HTMLElement {
  static get observedAttributes() { return ["tournament", "event", "organisation", "api", "season", "league", "division", "view", "refresh"]; }

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    // A report made on the same page (<league-report>) refreshes what it changed.
    this.onReported = (event) => { if (event.detail.id === this.heldId()) this.refresh(); };
  }

  heldId() {
    return this.getAttribute("event") || this.getAttribute("tournament") || this.getAttribute("organisation");
  }

  connectedCallback() {
    if (!this.shadowRoot.childElementCount) {
      this.output = el("div", { "aria-live": "polite" });
      this.shadowRoot.append(el("style", {}, STYLE),
        el("button", { type: "button", class: "secondary", onclick: () => this.refresh() }, "Refresh"),
        this.output);
    }
    document.addEventListener(REPORTED, this.onReported);
    this.schedule();
    this.refresh();
  }

  disconnectedCallback() {
    document.removeEventListener(REPORTED, this.onReported);
    clearInterval(this.timer);
    this.timer = undefined;
  }

  attributeChangedCallback(name) {
    if (name === "refresh") this.schedule();
    if (this.output && name !== "refresh") this.refresh();
  }

  // Every `refresh` seconds while connected; a hidden tab (a phone in a pocket) is skipped.
  schedule() {
    clearInterval(this.timer);
    this.timer = undefined;
    const seconds = Number(this.getAttribute("refresh"));
    if (!this.isConnected || !Number.isFinite(seconds) || seconds <= 0) return;
    this.timer = setInterval(() => { if (!document.hidden) this.refresh(); },
      Math.max(seconds, MIN_REFRESH) * 1000);
  }

  async refresh() {
    const id = this.heldId();
    if (!id) {
      this.output.replaceChildren(el("p", { class: "muted" }, "No event given."));
      return;
    }
    const base = `${apiBase(this)}${this.constructor.collection}/${encodeURIComponent(id)}`;
    const read = async (path) => problemOrJson(await fetch(base + path, { credentials: "omit", headers: { Accept: "application/json" } }));
    try {
      const event = await read("");
      this.show(event, await this.current(event, read));
    } catch (error) {
      this.output.replaceChildren(errorBox(error));
    }
  }

  // The part of the event under way: the current round (or boards), or null.
  async current(event, read) {
    return event.current_round ? read(`/rounds/${event.current_round}`) : null;
  }
}

function table(className, headings, rows) {
  return el("div", { class: "scroll" }, el("table", { class: className },
    el("thead", {}, el("tr", {}, headings.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c) => el("td", {}, c)))))));
}

function ordinal(n) {
  const teen = n % 100 >= 10 && n % 100 <= 20;
  return n + (teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
}

// Positions as a ranking: the standard competition one (1, 2, 2, 4) or the dense (1, 2, 2, 3).
function isRanking(given) {
  const distinct = [...new Set(given)].sort((a, b) => a - b);
  const competition = given.map((p) => 1 + given.filter((q) => q < p).length);
  const dense = given.map((p) => distinct.indexOf(p) + 1);
  return [competition, dense].some((r) => r.every((p, i) => p === given[i]));
}

function badge(status, text = status) {
  return el("span", { class: `badge ${status}` }, text);
}

// The winners by name: ``names`` maps an id to the name shown.
function winnersLine(winners, names) {
  const shown = winners.map((id) => names[id] || id);
  return winners.length ? el("p", { class: "winner" }, `Winner${winners.length > 1 ? "s" : ""}: ${shown.join(", ")}`) : null;
}

class StrikesStandings extends HeldStandings {
  static collection = "/v1/strikes/tournaments";

  show(tournament, round) {
    const names = Object.fromEntries(tournament.standings.map((s) => [s.player, s.name || s.player]));
    const parts = [el("h2", {}, tournament.name || "Strikes tournament")];
    parts.push(el("p", { class: "muted" }, `Eliminated at ${tournament.threshold} strikes · ${tournament.status.replace("_", " ")}`));
    parts.push(winnersLine(tournament.winners, names));
    if (round) {
      parts.push(el("h3", {}, `Round ${round.round} (${round.kind}, ${round.status})`));
      parts.push(table("seating", ["Table", "Players", "Result"], round.tables.map((t) => [
        String(t.table), t.players.map((p) => names[p]).join(", "),
        t.result ? t.result.map((r) => `${names[r.player]} ${r.strikes}`).join(", ") : "—"])));
      if (round.byes.length) parts.push(el("p", { class: "muted" }, `Bye: ${round.byes.map((p) => names[p]).join(", ")}`));
    }
    const status = (s) => {
      if (s.winner) return badge("winner");
      if (s.status === "eliminated") return badge("eliminated", `out in round ${s.eliminated_after_round}`);
      if (s.status === "dropped") return badge("dropped", `left before round ${s.dropped_before_round}`);
      return badge(s.status);
    };
    parts.push(el("h3", {}, tournament.status === "finished" ? "Final standings" : "Standings"));
    parts.push(table("standings", ["Place", "Player", "Strikes", "Games", "Status"], tournament.standings.map((s) => [
      ordinal(s.place), names[s.player], String(s.strikes), String(s.games), status(s)])));
    this.output.replaceChildren(...parts.filter(Boolean));
  }
}

class DiagonalStandings extends HeldStandings {
  static collection = "/v1/diagonal/events";

  show(race, round) {
    const names = Object.fromEntries(race.standings.map((s) => [s.player, s.name || s.player]));
    const parts = [el("h2", {}, race.name || "Diagonal Race")];
    parts.push(el("p", { class: "muted" }, `Two losses eliminate · ${race.status.replace("_", " ")}`));
    parts.push(winnersLine(race.winners, names));
    if (race.ending && !race.ending.finished) parts.push(el("p", { class: "muted" }, race.ending.reason));
    if (round) {
      const kind = round.playoff ? "playoff" : `${round.opponents} games each`;
      parts.push(el("h3", {}, `Round ${round.round} (${kind}, ${round.status})`));
      parts.push(table("games", ["Game", "Players", "Result"], round.games.map((g) => [
        String(g.game), g.players.map((p) => names[p]).join(" v "),
        g.result ? `${names[g.result.winner]} won, ${g.result.pieces_left} pieces left` : "—"])));
    }
    parts.push(el("h3", {}, "Standings"));
    parts.push(table("standings", ["Place", "Player", "Wins", "Losses", "Games", "Opponents", "Status"], race.standings.map((s) => [
      String(s.place), names[s.player], String(s.wins), String(s.losses), String(s.games),
      s.opponents.map((p) => names[p]).join(", "), badge(s.status)])));
    this.output.replaceChildren(...parts.filter(Boolean));
  }
}

class PuffingBillyStandings extends HeldStandings {
  static collection = "/v1/puffing-billy/events";

  // The boards of the stage under way (the final's once the preliminaries are closed).
  async current(event, read) {
    const stage = event.stage === "preliminary" ? "preliminary" : "final";
    const { boards } = await read("/boards");
    return { stage, boards: boards.filter((b) => b.stage === stage) };
  }

  show(event, current) {
    const names = Object.fromEntries(event.ranking.map((r) => [r.id, r.name || r.id]));
    const parts = [el("h2", {}, event.name || "Puffing Billy")];
    const stages = { preliminary: "preliminaries", final: "final under way", finished: "finished" };
    parts.push(el("p", { class: "muted" }, `${stages[event.stage]} · ${event.boards_entered} boards entered`));
    parts.push(winnersLine(event.champions, names));
    if (current.boards.length) {
      parts.push(el("h3", {}, current.stage === "final" ? "Final boards" : "Latest boards"));
      parts.push(table("boards", ["Board", "Players (PB score)"], current.boards.slice(-12).map((b) => [
        b.name || String(b.board), b.players.map((p) => `${names[p.id]} ${p.total_exact}`).join(", ")])));
    }
    if (event.final_standings.length) {
      parts.push(el("h3", {}, "Final"));
      parts.push(table("final", ["Rank", "Player", "PB score"], event.final_standings.map((s) => [
        String(s.rank), names[s.id], s.total_exact])));
    }
    parts.push(el("h3", {}, "Standings"));
    parts.push(table("standings", ["Rank", "Player", "PB score", "Boards", "Wins", ""], event.standings.map((s) => [
      String(s.rank), names[s.id], s.total_exact, String(s.boards), String(s.wins),
      s.qualified ? badge("qualified") : ""])));
    this.output.replaceChildren(...parts.filter(Boolean));
  }
}


// A number as people read it: 30.5, 6.33 (the exact value stays in the JSON).
function decimal(value) {
  return String(Number(value.toFixed(2)));
}

const EVENT_STATUS = {
  registered: "not started", round_open: "round under way", between_rounds: "between rounds", finished: "finished" };

// Spread as players write it: +120, -40, 0.
function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

function given(amount) {
  return !(amount === null || amount === undefined || amount === "");
}

// The prize of a place: "1st · 500"; a place whose amount is null shows the place alone.
function prizeText(place, amount) {
  return given(amount) ? `${ordinal(place)} · ${amount}` : ordinal(place);
}

// The prize beside each player of the standings (in place order), null beyond the paid
// places. Players level on wins and spread share their places and are shown tied, as many
// events split the money of tied places: "1st–2nd (tied: 500 + 250 split)" (the event's
// page and CSV say the same: prize_places.place_labels).
function prizeLabels(standings, prizes) {
  const labels = [];
  for (let start = 0; start < standings.length;) {
    const level = (s) => s.wins === standings[start].wins && s.spread === standings[start].spread;
    let end = start;
    while (end + 1 < standings.length && level(standings[end + 1])) end += 1;
    const first = start + 1;
    const last = end + 1;
    const shared = prizes.slice(first - 1, last);
    let label = null;
    if (first === last && first <= prizes.length) label = prizeText(first, prizes[first - 1]);
    else if (first <= prizes.length) {
      const split = shared.every(given) ? `: ${shared.join(" + ")} split` : "";
      label = `${ordinal(first)}–${ordinal(last)} (tied${split})`;
    }
    for (let at = start; at <= end; at += 1) labels.push(label);
    start = end + 1;
  }
  return labels;
}

// A held Scrabble event: the current (or last) round's pairings by board and by name
// (what a player looks for on a phone), then the standings with the prize of each place
// beside its holder when the event names them (`prizes`: amounts or null, in place order).
class ScrabbleStandings extends HeldStandings {
  static collection = "/v1/scrabble/events";

  show(event, round) {
    const names = Object.fromEntries(event.standings.map((s) => [s.player, s.name || s.player]));
    const name = (p) => names[p] || p;
    const parts = [el("h2", {}, event.name || "Scrabble event")];
    const rounds = event.current_round ? `Round ${event.current_round} of ${event.rounds}` : `${event.rounds} rounds`;
    parts.push(el("p", { class: "muted" }, `${rounds} · ${EVENT_STATUS[event.status] || event.status.replace("_", " ")}`));
    if (round) {
      parts.push(el("h3", {}, `Round ${round.round} pairings (${round.status})`));
      const score = (g) => {
        if (!g.result) return "—";
        if (g.result.forfeit) return `${name(g.result.forfeit)} forfeited`;
        // Penalties (docs/scrabble.md): spread only, shown beside the scores.
        const taken = (g.result.penalties || [])
          .map((p, i) => (p ? `${name(g.players[i])} −${p}` : null))
          .filter((p) => p);
        const scores = g.result.scores.join("–");
        return taken.length ? `${scores} (penalty: ${taken.join(", ")})` : scores;
      };
      const boards = round.games.map((g) => [String(g.game), name(g.players[0]), name(g.players[1]), score(g)]);
      if (round.bye) boards.push(["—", name(round.bye), badge("bye"), `+${event.bye_spread}`]);
      // A round imported from tsh: players without an opponent (tsh's opponent 0).
      const satOut = (round.sat_out || []).map((s) => ({ ...s, what: s.spread > 0 ? "bye" : s.spread < 0 ? "forfeit" : "unplayed" }));
      for (const s of satOut) boards.push(["—", name(s.player), badge(s.what === "bye" ? "bye" : "dropped", s.what), signed(s.spread)]);
      parts.push(el("h4", {}, "By board"));
      parts.push(table("boards", ["Board", "Player", "Opponent", "Score"], boards));
      const seats = round.games.flatMap((g) => [
        { player: g.players[0], board: String(g.game), opponent: name(g.players[1]) },
        { player: g.players[1], board: String(g.game), opponent: name(g.players[0]) }]);
      if (round.bye) seats.push({ player: round.bye, board: "—", opponent: badge("bye") });
      for (const s of satOut) seats.push({ player: s.player, board: "—", opponent: badge(s.what === "bye" ? "bye" : "dropped", s.what) });
      seats.sort((a, b) => name(a.player).localeCompare(name(b.player), undefined, { sensitivity: "base" })
        || a.player.localeCompare(b.player));
      parts.push(el("h4", {}, "By name"));
      parts.push(table("by-name", ["Player", "Board", "Opponent"], seats.map((s) => [name(s.player), s.board, s.opponent])));
    }
    // Marks beside a player's name (so the table keeps five columns on a phone): the prize
    // of the place they hold now (shared when tied), and a withdrawal.
    const prizes = Array.isArray(event.prizes) ? event.prizes : [];
    const held = prizeLabels(event.standings, prizes);
    const marks = (s, at) => [
      held[at] ? badge("prize", held[at]) : null,
      s.status === "withdrawn" ? badge("dropped", "withdrawn") : null].filter(Boolean).flatMap((mark) => [" ", mark]);
    parts.push(el("h3", {}, event.status === "finished" ? "Final standings" : "Standings"));
    parts.push(table("standings", ["#", "Player", "Wins", "Losses", "Spread"], event.standings.map((s, at) => [
      String(s.rank), [name(s.player), ...marks(s, at)], decimal(s.wins), decimal(s.losses), signed(s.spread)])));
    this.output.replaceChildren(...parts);
  }
}

function leagueTable(line) {
  return table("standings", ["#", "Player", "Points", "Games", "Wins", "Ahead on"], line.standings.map((s) => [
    String(s.rank), s.name || s.player, decimal(s.league_points), String(s.games), String(s.values.wins), s.ahead_on || ""]));
}

// A league organisation: one league's table (league="2-A"), a division's tables
// (division="2"), or the lifetime table and season winners (view="lifetime"). Without
// those, Division 1 of the season (the latest unless season="n").
class LeagueStandings extends HeldStandings {
  static collection = "/v1/league/organisations";

  async current(org, read) {
    if (this.getAttribute("view") === "lifetime") return { lifetime: await read("/lifetime") };
    const number = this.getAttribute("season") || org.current_season;
    if (!number) return { tables: [] };
    const league = this.getAttribute("league");
    if (league) return { number, tables: [await read(`/seasons/${number}/leagues/${encodeURIComponent(league)}`)] };
    const division = Number(this.getAttribute("division") || 1);
    const season = await read(`/seasons/${number}`);
    const names = season.leagues.filter((l) => l.division === division).map((l) => l.league);
    return { number, division, tables: await Promise.all(names.map((n) => read(`/seasons/${number}/leagues/${n}`))) };
  }

  show(org, current) {
    const parts = [el("h2", {}, org.name || `${org.code} league`)];
    if (current.lifetime) {
      const names = Object.fromEntries(current.lifetime.standings.map((s) => [s.player, s.name || s.player]));
      parts.push(el("h3", {}, "Season winners"));
      parts.push(table("winners", ["Season", "Winner"], current.lifetime.season_winners.map((w) => [String(w.season), names[w.player] || w.player])));
      parts.push(el("h3", {}, "Lifetime standings"));
      parts.push(table("lifetime", ["#", "Player", "Seasons", "Points by division"], current.lifetime.standings.map((s) => [
        String(s.rank), names[s.player], String(s.seasons),
        s.by_division.map((d) => `D${d.division}: ${decimal(d.league_points)}`).join(", ")])));
    } else if (!current.tables.length) {
      parts.push(el("p", { class: "muted" }, "No league has been formed yet."));
    } else {
      for (const league of current.tables) {
        const played = league.games.filter((g) => g.results).length;
        parts.push(el("h3", {}, `Season ${league.season}, league ${league.league} (${played} of ${league.games.length} games reported)`));
        parts.push(leagueTable(league));
      }
    }
    this.output.replaceChildren(...parts);
  }
}

// A player's form to report one of their games: their reporting token (from their
// letter), the league and the game; then every player's score and position.
class LeagueReport extends HTMLElement {
  static get observedAttributes() { return ["organisation", "api", "season", "league", "token", "player"]; }

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
  }

  connectedCallback() {
    if (this.shadowRoot.childElementCount) return;
    const field = (id, label, value = "", type = "text") => [
      el("label", { for: id }, label),
      el("input", { id, type, value, autocomplete: "off" })];
    // Checked when sent (``submit``): the positions may still be on their way then.
    this.form = el("form", { novalidate: "", onsubmit: (event) => { event.preventDefault(); this.submit(); } },
      el("div", { class: "row" },
        el("div", {}, ...field("token", "Your reporting token", this.getAttribute("token") || "", "password")),
        el("div", {}, ...field("league", "League", this.getAttribute("league") || ""))),
      el("button", { type: "button", class: "secondary", onclick: () => this.load() }, "Show my league's games"),
      el("label", { for: "game" }, "Game"),
      el("select", { id: "game", onchange: () => this.drawSeats() }),
      el("div", { class: "seats" }),
      el("button", { type: "submit" }, "Report this game"));
    this.output = el("div", { "aria-live": "polite" });
    this.shadowRoot.append(el("style", {}, STYLE), el("h2", {}, "Report a game"), this.form, this.output);
    if (this.getAttribute("league")) this.load();
  }

  $(id) { return this.shadowRoot.getElementById(id); }

  base() {
    const season = this.getAttribute("season");
    return `${apiBase(this)}/v1/league/organisations/${encodeURIComponent(this.getAttribute("organisation") || "")}/seasons/${season}`;
  }

  async load() {
    const league = this.$("league").value.trim();
    try {
      const answer = await problemOrJson(await fetch(`${this.base()}/leagues/${encodeURIComponent(league)}`, { credentials: "omit" }));
      // The player's own games first, those still to report before those reported; then
      // the rest of the league's (an organiser reports any game).
      const player = this.getAttribute("player") || "";
      const order = (g) => (g.seats.includes(player) ? 0 : 2) + (g.results ? 1 : 0);
      this.games = answer.games.map((g, i) => [order(g), i, g]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , g]) => g);
      this.names = Object.fromEntries(answer.standings.map((s) => [s.player, s.name || s.player]));
      const chosen = this.$("game").value;
      this.$("game").replaceChildren(...this.games.map((g) =>
        el("option", { value: String(g.game) }, `${g.name}: ${g.seats.map((p) => this.names[p]).join(", ")}${g.results ? " (reported)" : ""}`)));
      if (chosen && this.games.some((g) => String(g.game) === chosen)) this.$("game").value = chosen;
      this.drawSeats();
      this.output.replaceChildren();
    } catch (error) {
      this.output.replaceChildren(errorBox(error));
    }
  }

  drawSeats() {
    const game = (this.games || []).find((g) => String(g.game) === this.$("game").value);
    const box = this.shadowRoot.querySelector(".seats");
    if (!game) { box.replaceChildren(); return; }
    const derive = () => this.derivePositions();
    const name = (p) => this.names[p];
    box.replaceChildren(table("report", ["Player", "Score", "Position", "Left the game"], game.seats.map((p, i) => [
      name(p),
      el("input", { type: "number", step: "1", name: `score-${i}`, "aria-label": `${name(p)} score`, required: "", oninput: derive }),
      el("select", { name: `position-${i}`, "aria-label": `${name(p)} position`, required: "", onchange: () => this.checkPositions() }),
      el("input", { type: "checkbox", name: `left-${i}`, "aria-label": `${name(p)} left the game`, onchange: derive })])),
      el("p", { class: "muted hint", "aria-live": "polite" }));
    this.derivePositions();
  }

  // Each seat's score, position select and whether the player left the game.
  seatInputs() {
    const game = this.games.find((g) => String(g.game) === this.$("game").value);
    const get = (name, i) => this.shadowRoot.querySelector(`[name=${name}-${i}]`);
    return game.seats.map((player, i) => ({
      player, score: get("score", i), position: get("position", i), left: get("left", i) }));
  }

  // Positions follow the scores (docs/league.md): the service says each player's position
  // and, in a tie, the others a select may offer (POST /v1/league/positions: positions a
  // report's check accepts), asked once typing pauses; the last answer asked for is shown,
  // and a report sent meanwhile waits for it (``positionsShown``).
  derivePositions() {
    clearTimeout(this.positionsTimer);
    if (this.positionsDone) this.positionsDone(); // superseded: nothing more to wait for
    const asked = (this.positionsAsked = (this.positionsAsked || 0) + 1);
    const seats = this.seatInputs();
    const scores = seats.map((s) => s.score.value.trim() === "" ? null : Number(s.score.value));
    if (!scores.every((s) => s !== null && Number.isInteger(s))) {
      for (const seat of seats) seat.position.replaceChildren(el("option", { value: "" }, "—"));
      this.checkPositions();
      this.positionsDone = null;
      this.positionsPending = null;
      return;
    }
    this.positionsPending = new Promise((resolve) => {
      this.positionsDone = resolve;
      this.positionsTimer = setTimeout(() => this.askPositions(asked, seats, scores).then(resolve), POSITIONS_DEBOUNCE_MS);
    });
  }

  async askPositions(asked, seats, scores) {
    const results = seats.map((seat, i) => ({ score: scores[i], dropped_out: seat.left.checked }));
    let answer = null;
    try {
      answer = await problemOrJson(await fetch(`${apiBase(this)}/v1/league/positions`, {
        method: "POST", credentials: "omit",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ results }) }));
    } catch (error) {
      if (asked === this.positionsAsked) this.output.replaceChildren(errorBox(error));
    }
    if (asked !== this.positionsAsked) return; // the scores changed since: asked again
    seats.forEach((seat, i) => {
      const { position, allowed } = answer ? answer.positions[i] : { position: "", allowed: [] };
      seat.position.replaceChildren(...(answer ? allowed.map((p) => el("option", { value: String(p) }, ordinal(p))) : [el("option", { value: "" }, "—")]));
      seat.position.value = String(position);
    });
    this.checkPositions();
  }

  // Resolves once the positions of the scores as typed are shown.
  async positionsShown() {
    let pending;
    do {
      pending = this.positionsPending;
      await pending;
    } while (pending !== this.positionsPending);
  }

  // A choice must leave the positions a ranking (1, 2, 2, 4 or 1, 2, 2, 3).
  checkPositions() {
    const seats = this.seatInputs();
    const given = seats.map((s) => Number(s.position.value));
    const hint = this.shadowRoot.querySelector(".hint");
    const complete = given.every((p) => p);
    const message = !complete || isRanking(given) ? "" : `Positions ${given.join(", ")} are not a ranking: players who share a position take the better one (as 1, 2, 2, 4).`;
    for (const seat of seats) seat.position.setCustomValidity(message);
    const tied = seats.filter((s) => s.position.options.length > 1).map((s) => this.names[s.player]);
    hint.textContent = !complete ? "Type every player's score: the positions follow from them."
      : message || (tied.length
        ? `Equal scores share a position; if the game's rules break the tie, choose the order (${tied.join(", ")}).`
        : "Positions follow the scores.");
  }

  async submit() {
    await this.positionsShown();
    if (!this.form.reportValidity()) return; // a score missing, positions not a ranking
    const game = this.games.find((g) => String(g.game) === this.$("game").value);
    const results = this.seatInputs().map((seat) => ({
      player: seat.player,
      score: Number(seat.score.value),
      position: Number(seat.position.value),
      dropped_out: seat.left.checked,
    }));
    try {
      const url = `${this.base()}/leagues/${encodeURIComponent(game.league)}/games/${game.game}`;
      await problemOrJson(await fetch(url, {
        method: "PUT", credentials: "omit",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${this.$("token").value.trim()}` },
        body: JSON.stringify({ results }) }));
      this.output.replaceChildren(el("p", { class: "winner", role: "status" }, `${game.name} is reported. Thank you!`));
      document.dispatchEvent(new CustomEvent(REPORTED, { detail: { id: this.getAttribute("organisation") } }));
      await this.load();
      this.output.replaceChildren(el("p", { class: "winner", role: "status" }, `${game.name} is reported. Thank you!`));
    } catch (error) {
      this.output.replaceChildren(errorBox(error));
    }
  }
}

if (!customElements.get("pairing-advisor")) customElements.define("pairing-advisor", PairingAdvisor);
if (!customElements.get("strikes-standings")) customElements.define("strikes-standings", StrikesStandings);
if (!customElements.get("diagonal-standings")) customElements.define("diagonal-standings", DiagonalStandings);
if (!customElements.get("puffing-billy-standings")) customElements.define("puffing-billy-standings", PuffingBillyStandings);
if (!customElements.get("scrabble-standings")) customElements.define("scrabble-standings", ScrabbleStandings);

if (!customElements.get("league-standings")) customElements.define("league-standings", LeagueStandings);
if (!customElements.get("league-report")) customElements.define("league-report", LeagueReport);

export {
  PairingAdvisor, StrikesStandings, DiagonalStandings, PuffingBillyStandings, ScrabbleStandings, LeagueStandings, LeagueReport,
};
