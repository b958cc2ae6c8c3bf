// What the director's desk, the scorekeeper's page and the league organiser's desk share
// (api/held/desk.py): the token from the link's fragment (#token=...), which the browser never
// sends, kept in this tab's session storage (the newest link's wins) and cleared from the
// address bar; and the JSON API called as any client calls it, every write with If-Match
// (the ETag of the last read) and an Idempotency-Key made once per intended action and
// sent again when that action is retried after a lost answer.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

export class Refused extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `error ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

// One page's connection to one event: its token, its ETag, its pending actions' keys.
// ``reload`` draws the page again after a write; ``message`` is where outcomes are said.
export function connect({ api, storageKey, message, reload }) {
  let etag = null;
  const pendingKeys = new Map(); // action -> its Idempotency-Key, until it is answered

  const takeToken = () => {
    const fromLink = new URLSearchParams(window.location.hash.slice(1)).get("token");
    if (fromLink) {
      sessionStorage.setItem(storageKey, fromLink);
      history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    return sessionStorage.getItem(storageKey) || "";
  };

  const connection = {
    token: takeToken(),
    useToken(given) {
      sessionStorage.setItem(storageKey, given);
      connection.token = given;
    },
    say(text, kind = "note") {
      message.replaceChildren(text ? el("p", { class: kind, role: kind === "error" ? "alert" : "status" }, text) : "");
    },
    async call(method, path, { body, action, auth = true } = {}) {
      const headers = { Accept: "application/json" };
      if (auth && connection.token) headers.Authorization = `Bearer ${connection.token}`;
      if (method !== "GET") {
        if (etag) headers["If-Match"] = etag;
        const key = pendingKeys.get(action) || crypto.randomUUID();
        pendingKeys.set(action, key);
        headers["Idempotency-Key"] = key;
      }
      if (body !== undefined) headers["Content-Type"] = "application/json";
      let response;
      try {
        response = await fetch(api + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      } catch (error) {
        // No answer: the action's key is kept, so pressing again cannot do it twice.
        throw new Refused(0, { detail: "no answer from the service (the Wi-Fi?): press again; it is safe, the same action is sent again" });
      }
      if (method !== "GET") pendingKeys.delete(action);
      const tag = response.headers.get("ETag");
      if (tag) etag = tag;
      const type = response.headers.get("Content-Type") || "";
      const answer = type.includes("json") ? await response.json() : {};
      if (!response.ok) throw new Refused(response.status, answer);
      return answer;
    },
    async write(method, path, action, body) {
      connection.say(""); // cleared while the action is under way: its outcome replaces it
      try {
        const answer = await connection.call(method, path, { body, action });
        const changes = (answer && answer.changes) || [];
        await reload();
        connection.say(changes.length ? `Done. What it changed: ${changes.join("; ")}` : "Done.");
        return answer;
      } catch (error) {
        if (error.status === 412) {
          await reload(); // told once the page shows what the other wrote
          connection.say("Someone else wrote meanwhile: the page has reloaded. Check, then enter again.", "error");
        } else {
          connection.say(error.message, "error");
        }
        return null;
      }
    },
  };
  window.addEventListener("hashchange", () => {
    connection.token = takeToken();
    reload();
  });
  return connection;
}

// Asks for the token when the page was opened without one; true when it did.
export function askForToken(connection, content, reload) {
  if (connection.token) return false;
  const pasted = el("input", { id: "token", autocomplete: "off" });
  const form = el("form", {}, el("p", {}, "Open this page with its link (ending #token=…), or paste the token:"),
    el("div", { class: "seat" }, el("label", { for: "token" }, "Token"), pasted), el("button", { type: "submit" }, "Open"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    connection.useToken(pasted.value.trim());
    reload();
  });
  content.replaceChildren(form);
  return true;
}
