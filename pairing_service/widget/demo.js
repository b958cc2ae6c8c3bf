// The demo page's only script (no inline script, so the page's CSP can forbid them).
const params = new URLSearchParams(location.search);
const input = document.getElementById("tournament");
const standings = document.getElementById("standings");
if (params.get("tournament")) {
  input.value = params.get("tournament");
  standings.setAttribute("tournament", input.value);
}
document.getElementById("pick").addEventListener("submit", (event) => {
  event.preventDefault();
  standings.setAttribute("tournament", input.value.trim());
});
