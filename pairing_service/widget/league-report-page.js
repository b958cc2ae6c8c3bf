// The report page of a Meeple League season (/events/league/<id>/seasons/<n>/report):
// the player's letter links here with their reporting token in the URL's fragment
// (#token=...), which the browser never sends to the server. This hands it to the
// <league-report> widget, made here so that it starts with the token filled in.
import "/widget/v1/pairing-advisor.js";

const holder = document.getElementById("report");
const token = new URLSearchParams(window.location.hash.slice(1)).get("token") || "";
const form = document.createElement("league-report");
for (const name of ["organisation", "season", "league"]) {
  form.setAttribute(name, holder.dataset[name] || "");
}
form.setAttribute("api", "");
if (token) form.setAttribute("token", token);
holder.replaceChildren(form);
