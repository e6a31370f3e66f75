// Talking to the server: JSON requests and the game's live WebSocket.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function parse(response) {
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const message = (data && data.error) || text || `${response.status} ${response.statusText}`;
    throw new ApiError(message, response.status);
  }
  return data;
}

export async function get(path) {
  return parse(await fetch(path, { headers: { Accept: "application/json" } }));
}

export async function post(path, body = {}) {
  return parse(await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  }));
}

export async function del(path) {
  return parse(await fetch(path, { method: "DELETE", headers: { Accept: "application/json" } }));
}

export async function getText(path) {
  const response = await fetch(path);
  if (!response.ok) throw new ApiError(await response.text(), response.status);
  return response.text();
}

// The server's close codes: the game is gone (restarted, closed); too many pages watch it.
export const GONE = 4404;
export const CROWDED = 4429;

// One WebSocket per game; reconnects while the game is the page's game, and
// stops when the server says why it closed it (onEnd(code, reason)).
export class Live {
  constructor(sid, onMessage, onEnd) {
    this.sid = sid;
    this.onMessage = onMessage;
    this.onEnd = onEnd;
    this.closed = false;
    this.retry = 250;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/sessions/${this.sid}/live`);
    this.socket = socket;
    socket.onmessage = (event) => {
      this.retry = 250;
      this.onMessage(JSON.parse(event.data));
    };
    socket.onclose = (event) => {
      if (this.closed) return;
      if (event.code === GONE || event.code === CROWDED) { this.closed = true; this.onEnd(event.code, event.reason); return; }
      setTimeout(() => { if (!this.closed) this.open(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 2000);
    };
  }

  close() {
    this.closed = true;
    if (this.socket) this.socket.close();
  }
}
