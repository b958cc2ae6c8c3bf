// The demo page's only script (no inline script, so the page's CSP can forbid them).
// ?format=diagonal-standings&tournament=<id>[&refresh=60] opens the page on that event.
const params = new URLSearchParams(location.search);
const input = document.getElementById("tournament");
const format = document.getElementById("format");
const refresh = document.getElementById("refresh");
const report = document.getElementById("report");

// The league widgets name an organisation; the others a tournament or event.
function show(tag, id, every) {
  for (const element of document.querySelectorAll(".standings")) {
    const chosen = element.localName === tag;
    element.hidden = !chosen;
    if (!chosen) continue;
    if (every) element.setAttribute("refresh", every);
    else element.removeAttribute("refresh");
    element.setAttribute(tag === "league-standings" ? "organisation" : "tournament", id);
  }
  const league = tag === "league-standings";
  report.hidden = !league;
  if (league) report.querySelector("league-report").setAttribute("organisation", id);
}

if (params.get("format")) format.value = params.get("format");
if (params.get("refresh")) refresh.value = params.get("refresh");
if (params.get("tournament")) {
  input.value = params.get("tournament");
  show(format.value, input.value, refresh.value);
}
document.getElementById("pick").addEventListener("submit", (event) => {
  event.preventDefault();
  show(format.value, input.value.trim(), refresh.value.trim());
});
