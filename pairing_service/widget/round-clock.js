// The time left on a round's clock, ticking on the public page and the desk: every
// element with data-ends (ISO 8601) shows the minutes left, and the end in local time.
function show(node) {
  const ends = new Date(node.dataset.ends);
  const left = Math.ceil((ends.getTime() - Date.now()) / 60000);
  const at = ends.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const round = node.dataset.round ? `Round ${node.dataset.round} ` : "The round ";
  node.textContent = left > 0
    ? `${round}ends at ${at}: ${left} minute${left === 1 ? "" : "s"} left`
    : `${round}time is up (${at})`;
}

export function tick(root = document) {
  const nodes = [...root.querySelectorAll("[data-ends]")];
  nodes.forEach(show);
  return nodes.length;
}

tick();
setInterval(tick, 15000);
