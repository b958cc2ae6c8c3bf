// The demo page's only script (no inline script, so the page's CSP can forbid them).
// ?format=diagonal-standings&tournament=<id> opens the page on that event.
const params = new URLSearchParams(location.search);
const input = document.getElementById("tournament");
const format = document.getElementById("format");

function show(tag, id) {
  for (const element of document.querySelectorAll(".standings")) {
    const chosen = element.localName === tag;
    element.hidden = !chosen;
    if (chosen) element.setAttribute("tournament", id);
  }
}

if (params.get("format")) format.value = params.get("format");
if (params.get("tournament")) {
  input.value = params.get("tournament");
  show(format.value, input.value);
}
document.getElementById("pick").addEventListener("submit", (event) => {
  event.preventDefault();
  show(format.value, input.value.trim());
});
