// The report page of a Meeple League season (/events/league/<id>/seasons/<n>/report):
// the player's letter links here with their reporting token and their id in the URL's
// fragment (#token=...&player=...), which the browser never sends to the server. The token
// is kept in this tab's session storage for this season (so a reload still works) and
// cleared from the address bar at once; a second letter's link opened in the same tab
// (the page does not reload: only the fragment changes) takes the newest token. The
// <league-report> widget is made here so that it starts with the token filled in.
import "/widget/v1/pairing-advisor.js";

const holder = document.getElementById("report");
const key = `pairing-advisor:report:${holder.dataset.organisation}:${holder.dataset.season}`;

// The newest link's token and player: a fragment that carries a token replaces whatever
// the tab kept (never an old token over a new link); without one, the tab's.
function fromLink() {
  const given = new URLSearchParams(window.location.hash.slice(1));
  const token = given.get("token");
  if (token) {
    const newest = { token, player: given.get("player") || "" };
    history.replaceState(null, "", window.location.pathname + window.location.search);
    try {
      sessionStorage.setItem(key, JSON.stringify(newest));
    } catch {
      // Storage refused (a private window's quota): the form still has the token.
    }
    return newest;
  }
  try {
    return JSON.parse(sessionStorage.getItem(key) || "{}");
  } catch {
    return {};
  }
}

function showForm() {
  const { token = "", player = "" } = fromLink();
  const form = document.createElement("league-report");
  for (const name of ["organisation", "season", "league"]) {
    form.setAttribute(name, holder.dataset[name] || "");
  }
  form.setAttribute("api", "");
  if (token) form.setAttribute("token", token);
  if (player) form.setAttribute("player", player);
  holder.replaceChildren(form);
}

showForm();
window.addEventListener("hashchange", showForm);
